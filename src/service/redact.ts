/**
 * The API key must never reach an error, a log or a file. Everything that quotes the service (body excerpts,
 * messages) goes through `redact`, which knows the secrets of the current client.
 */
const EXCERPT_LENGTH = 300;

export type Redactor = (text: string) => string;

export function createRedactor(secrets: readonly (string | null | undefined)[]): Redactor {
  // Very short secrets would redact ordinary text; a key shorter than 4 characters is not a real key.
  const present = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  // A service may echo the key JSON-escaped (inside a JSON body we re-serialise) or URL-encoded (in a URL it
  // quotes back): each of those spellings is a secret too.
  const spellings = [
    ...new Set(present.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])),
  ];
  if (spellings.length === 0) return (text) => text;
  // Longest first, so a spelling that contains another is replaced whole.
  spellings.sort((a, b) => b.length - a.length);
  // Percent-escapes are case-insensitive (RFC 3986 §2.1): a service may echo `%2f` where we would write `%2F`.
  const pattern = new RegExp(
    spellings
      .map((spelling) =>
        escapeRegExp(spelling).replace(
          /%([0-9A-F])([0-9A-F])/g,
          (_, a: string, b: string) => `%${hexClass(a)}${hexClass(b)}`,
        ),
      )
      .join('|'),
    'g',
  );
  return (text) => text.replace(pattern, '[REDACTED]');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `F` → `[Ff]`; a digit stays itself. */
function hexClass(digit: string): string {
  return /[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit;
}

/** A short single-line excerpt of a body, for error messages and records. */
export function excerpt(body: string, redact: Redactor): string {
  const flat = redact(body).replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat;
}
