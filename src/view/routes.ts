/**
 * The view's route table: method and path pattern → handler, matched on the decoded path segments. A pattern
 * is literal segments, `:name` for one segment and a last `*name` for the rest (zero or more). Hand-written:
 * a dozen fixed routes need nothing a router package adds, and the segments are decoded and checked once here.
 */

export type Method = 'GET' | 'POST';

export interface Route<C> {
  method: Method;
  /** e.g. `/api/runs/:run/truth`, `/runs/:run/*path`. */
  pattern: string;
  handle(context: C, params: RouteParams): Promise<void>;
}

export interface RouteParams {
  /** `:name` segments. */
  named: Record<string, string>;
  /** What `*name` matched (empty when the pattern has none). */
  rest: string[];
}

export type RouteMatch<C> = { route: Route<C>; params: RouteParams } | { allowed: Method[] } | null;

function matchPattern(pattern: string, segments: readonly string[]): RouteParams | null {
  const parts = pattern === '/' ? [] : pattern.split('/').slice(1);
  const named: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    if (part.startsWith('*')) return index === parts.length - 1 ? { named, rest: segments.slice(index) } : null;
    const segment = segments[index];
    if (segment === undefined) return null;
    if (part.startsWith(':')) {
      if (segment === '') return null;
      named[part.slice(1)] = segment;
    } else if (part !== segment) return null;
  }
  return segments.length === parts.length ? { named, rest: [] } : null;
}

/**
 * The route for `method` (HEAD is served as GET) and `segments`; `{ allowed }` when the path exists for other
 * methods only (a 405), null when it does not exist (a 404).
 */
export function matchRoute<C>(routes: readonly Route<C>[], method: string, segments: readonly string[]): RouteMatch<C> {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const allowed: Method[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (params === null) continue;
    if (route.method === wanted) return { route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { allowed } : null;
}
