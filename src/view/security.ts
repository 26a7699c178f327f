/**
 * What keeps `docbench view` to its owner (docs/view.md, Security): a random session token, required in a header (never
 * a cookie, so a foreign page cannot make the browser send it) on every state-changing request, and on every
 * request when the server listens beyond loopback; a Host check against DNS rebinding; and paths confined to
 * the reports directory with symbolic links resolved.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';

export const TOKEN_HEADER = 'x-docbench-token';
/** Query parameter of the printed URL, accepted for page loads (GET) only. */
export const TOKEN_PARAM = 'token';

export function createSessionToken(): string {
  return randomBytes(24).toString('base64url');
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

function sameToken(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Cookie that carries the token between page loads when the view listens beyond loopback (report pages link
 * each other with plain relative links). Reads only: a state-changing request needs the header.
 */
export const READ_COOKIE = 'docbench_view';

export function isReadRequest(request: IncomingMessage): boolean {
  return request.method === 'GET' || request.method === 'HEAD';
}

/** The token in the header; for reads also in the URL (the printed link) or the read cookie. */
export function hasValidToken(request: IncomingMessage, url: URL, token: string): boolean {
  const header = request.headers[TOKEN_HEADER];
  if (sameToken(Array.isArray(header) ? header[0] : header, token)) return true;
  if (!isReadRequest(request)) return false;
  if (sameToken(url.searchParams.get(TOKEN_PARAM), token)) return true;
  const cookie = (request.headers.cookie ?? '').split(';').map((c) => c.trim()).find((c) => c.startsWith(`${READ_COOKIE}=`));
  return sameToken(cookie?.slice(READ_COOKIE.length + 1), token);
}

/**
 * Host headers the server answers to: its own address and port (and `localhost` on loopback). A page of
 * another site whose name was rebound to 127.0.0.1 sends its own name and is refused.
 */
export function acceptedHosts(host: string, port: number): Set<string> {
  const names = new Set([host.includes(':') && !host.startsWith('[') ? `[${host}]` : host]);
  if (isLoopbackHost(host)) for (const name of ['localhost', '127.0.0.1', '[::1]']) names.add(name);
  return new Set([...names].map((name) => `${name}:${port}`.toLowerCase()));
}

/** A run directory's name as the view accepts it in a URL: one path segment, no dot files. */
const RUN_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/;

export function isRunName(value: string): boolean {
  return RUN_NAME.test(value) && value !== '..';
}

/**
 * The absolute path of `segments` under `root`, once every symbolic link is resolved, or null when it is
 * outside `root`, does not exist, or a segment is empty, `.`, `..`, hidden or holds a separator or NUL.
 */
export async function resolveConfined(root: string, segments: readonly string[]): Promise<string | null> {
  for (const segment of segments) {
    if (segment === '' || segment.startsWith('.') || /[/\\\0]/.test(segment)) return null;
  }
  try {
    const realRoot = await realpath(root);
    const real = await realpath(path.join(root, ...segments));
    return real === realRoot || real.startsWith(`${realRoot}${path.sep}`) ? real : null;
  } catch {
    return null;
  }
}
