/**
 * Which strings from the service may become links. Only absolute http(s) URLs: `javascript:`, `data:`,
 * `vbscript:`, relative and protocol-relative URLs are shown as text (what a service returns is untrusted input).
 */

/** The URL normalised by the WHATWG parser when it is an absolute http(s) URL without credentials; otherwise null. */
export function toSafeHref(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  let url: URL;
  try {
    // No base: relative and protocol-relative URLs fail to parse and are refused.
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // A URL with user:password would put a secret into the report; refuse it as a link.
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}

/** A base URL as the header shows it: credentials, query and fragment removed (they may hold keys). */
export function describeServiceUrl(value: string | null): string {
  if (value === null) return 'local reference service';
  try {
    const url = new URL(value);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    return value.replace(/[?#].*$/s, '');
  }
}
