/**
 * What keeps `docbench view` to its owner (docs/view.md, "Security"): a random session token asked of every
 * request, as Jupyter does. The printed URL carries it once; the server answers it with an HttpOnly,
 * SameSite=Strict cookie for its own origin and a redirect to the same URL without it, so the token never
 * sits in a page, the address bar or the history. Scripts may send it in a header instead. A state-changing
 * request must also come from the view's own origin (Origin header), so another site cannot use the cookie.
 * Besides: a Host check against DNS rebinding, and paths confined to the reports directory with symbolic
 * links resolved.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { isLoopbackHost } from '../loopback.js';

export const TOKEN_HEADER = 'x-docbench-token';
/** Query parameter of the printed URL: exchanged for the cookie on a page load (GET), accepted nowhere else. */
export const TOKEN_PARAM = 'token';

export function createSessionToken(): string {
  return randomBytes(24).toString('base64url');
}

export function sameToken(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The session cookie's name. Cookies are not kept apart by port, so the name carries it: two view servers on
 * one machine do not overwrite each other's session.
 */
export function sessionCookieName(port: number): string {
  return `docbench_view_${port}`;
}

/** The Set-Cookie value: no Domain (this host only), HttpOnly (no script reads it), SameSite=Strict (no other site sends it). */
export function sessionCookie(port: number, token: string): string {
  return `${sessionCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

export function isReadRequest(request: IncomingMessage): boolean {
  return request.method === 'GET' || request.method === 'HEAD';
}

/** How a request proved it holds the token: the header (scripts), the cookie (the browser), or not at all. */
export function authenticate(request: IncomingMessage, token: string, port: number): 'header' | 'cookie' | null {
  const header = request.headers[TOKEN_HEADER];
  if (sameToken(Array.isArray(header) ? header[0] : header, token)) return 'header';
  const prefix = `${sessionCookieName(port)}=`;
  const cookie = (request.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(prefix));
  return sameToken(cookie?.slice(prefix.length), token) ? 'cookie' : null;
}

/**
 * Whether a state-changing request may act. With the token in the header it may: another site's page cannot
 * set that header without a CORS preflight the view never allows, nor does it know the token. With the cookie,
 * which the browser adds by itself, only when Origin is this server's own origin (browsers send Origin on
 * every POST; a cookie without one is refused).
 */
export function mayChangeState(request: IncomingMessage, via: 'header' | 'cookie'): boolean {
  if (via === 'header') return true;
  const origin = request.headers.origin;
  return origin !== undefined && origin.toLowerCase() === `http://${(request.headers.host ?? '').toLowerCase()}`;
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
