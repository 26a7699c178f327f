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
  const spellings = [...new Set(present.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]))];
  // Longest first, so a spelling that contains another is replaced whole.
  spellings.sort((a, b) => b.length - a.length);
  return (text) => spellings.reduce((out, secret) => out.split(secret).join('[REDACTED]'), text);
}

/** A short single-line excerpt of a body, for error messages and records. */
export function excerpt(body: string, redact: Redactor): string {
  const flat = redact(body).replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat;
}
