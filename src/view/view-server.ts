/**
 * `docbench view`'s HTTP server (docs/view.md), on node:http: the run index, every run's files (report,
 * drill-downs, comparison pages, CSV), diffs, trend charts, a run's progress, and the review with its API.
 * Everything is read from the reports directory on each request, so new runs appear without a restart.
 * Writes go only to the dataset's truth files (through truth-files.ts), its checks.jsonl (check-files.ts)
 * and, by re-scoring, to the run directory.
 */
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { isDocbenchError, UsageError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import {
  buildHistoryView,
  DEFAULT_DIFF_SETTINGS,
  diffRunDirectories,
  loadGateTemplates,
  renderDiffHtml,
  scanRuns,
} from '../gate/index.js';
import { loadTemplates } from '../report/index.js';
import { RUN_DIR_FILES, runDirPath } from '../run-dir/index.js';
import type { Json } from '../types.js';
import { renderDocumentPage } from './page-image.js';
import {
  renderIndexPage,
  renderMessagePage,
  renderProgressPage,
  renderReviewPage,
  STATIC_CSP,
  type Page,
} from './pages.js';
import { loadViewTemplates, type ViewTemplates } from './page-templates.js';
import { openReviewRun, rescoreRun, type ReviewRun } from './review-source.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, ReviewQueueStore } from './review-queue-store.js';
import { listRuns } from './run-list.js';
import { LRUCache } from 'lru-cache';
import { HttpError } from './http-error.js';
import { matchRoute, type Route } from './routes.js';
import { isLoopbackHost } from '../loopback.js';
import {
  acceptedHosts,
  authenticate,
  createSessionToken,
  isReadRequest,
  isRunName,
  mayChangeState,
  resolveConfined,
  sameToken,
  sessionCookie,
  TOKEN_PARAM,
} from './security.js';
import { sendFile } from './static-file.js';
import { StaleTruthError } from './truth-files.js';
import { addCheck, checksEtag } from './check-files.js';

export interface ViewServerOptions {
  reportsDir: string;
  /** @default '127.0.0.1' */
  host?: string;
  /** @default 0 (any free port) */
  port?: number;
  /** Where relative dataset paths in run.json are resolved from (as `docbench score` does). */
  cwd: string;
  logger?: Logger;
  /** @default a fresh random token */
  token?: string;
  /** Review items the page loads a request. @default 200 */
  reviewPageSize?: number;
}

export interface ViewServer {
  /** The address with the session token, e.g. http://127.0.0.1:41234/?token=…: opening it sets the session cookie. */
  url: string;
  /** Without the token. */
  baseUrl: string;
  token: string;
  close(): Promise<void>;
}

/** Types of the files a run directory holds; anything else is sent as a download. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const MAX_BODY_BYTES = 8 * 1024 * 1024;
/**
 * How long a run's loaded dataset is reused between API calls (page images come several a second), at most:
 * sooner when one of the run's files changes (their size and modification time are part of the key).
 */
const RUN_CACHE_MS = 30_000;
/** Runs kept loaded at once (the most recently used): a long-lived view server must not grow without end. */
const KEPT_RUNS = 4;
/** The run files whose change makes a loaded run stale. */
const RUN_KEY_FILES = ['manifest', 'summary', 'documents'] as const;

function baseHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
  };
}

function sendPage(res: ServerResponse, status: number, page: Page): void {
  res.writeHead(status, { ...baseHeaders(page.csp), 'content-type': 'text/html; charset=utf-8' });
  res.end(page.html);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { ...baseHeaders(STATIC_CSP), 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
}

async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? ''))
    throw new HttpError(415, 'send the request as application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new HttpError(400, 'the request body is not a JSON object');
}

function optionalText(body: Record<string, unknown>, key: string, max: number): string {
  const value = body[key] ?? '';
  if (typeof value !== 'string' || value.length > max)
    throw new HttpError(400, `${key} must be text of at most ${max} characters`);
  return value;
}

/** What a handler gets: the request, its response and parsed URL. */
interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
}

/** The request's path as decoded segments (`/runs/r1/` → `runs`, `r1`, ``). */
function pathSegments(url: URL): string[] {
  if (url.pathname === '/') return [];
  return url.pathname
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw new HttpError(400, 'malformed URL');
      }
    });
}

/** `size:mtime` of each file (`-` when absent): what changes when a file is rewritten. */
async function fileStamps(files: readonly string[]): Promise<string> {
  const stamps = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (info) => `${info.size}:${info.mtimeMs}`,
        () => '-',
      ),
    ),
  );
  return stamps.join('|');
}

/** What the server's steps share: its settings, the loaded runs, and the address it learns once listening. */
interface ViewState {
  host: string;
  reportsDir: string;
  cwd: string;
  logger: Logger;
  token: string;
  reviewPageSize: number;
  /** Whether it listens on a loopback address, where the Host header is checked (DNS rebinding). */
  loopback: boolean;
  /** Set once the server listens. */
  hosts: Set<string>;
  /** Set once the server listens. */
  port: number;
  runs: LRUCache<string, Promise<ReviewRun>>;
  rescoring: Map<string, Promise<unknown>>;
  queues: ReviewQueueStore;
  /** The view's pages, compiled before the server listens: an error page needs them at any time. */
  templates: ViewTemplates;
}

/** The options checked and defaulted, and the server's empty caches. */
function createViewState(options: ViewServerOptions, templates: ViewTemplates): ViewState {
  const host = options.host ?? '127.0.0.1';
  const reviewPageSize = options.reviewPageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(reviewPageSize) || reviewPageSize < 1 || reviewPageSize > MAX_PAGE_SIZE) {
    throw new UsageError(`reviewPageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${reviewPageSize}`, {
      subject: 'reviewPageSize',
      hint: `leave it out for ${DEFAULT_PAGE_SIZE}`,
    });
  }
  return {
    host,
    reportsDir: path.resolve(options.reportsDir),
    cwd: options.cwd,
    logger: options.logger ?? silentLogger,
    token: options.token ?? createSessionToken(),
    reviewPageSize,
    loopback: isLoopbackHost(host),
    hosts: new Set<string>(),
    port: 0,
    runs: new LRUCache<string, Promise<ReviewRun>>({ max: KEPT_RUNS, ttl: RUN_CACHE_MS }),
    rescoring: new Map<string, Promise<unknown>>(),
    queues: new ReviewQueueStore(),
    templates,
  };
}

async function runDirOf(state: ViewState, name: string): Promise<string> {
  if (!isRunName(name)) throw new HttpError(404, `no run "${name}"`);
  const dir = await resolveConfined(state.reportsDir, [name]);
  if (dir === null || !(await stat(dir).catch(() => null))?.isDirectory())
    throw new HttpError(404, `no run "${name}" in the reports directory`);
  return dir;
}

async function reviewRun(state: ViewState, name: string): Promise<ReviewRun> {
  const dir = await runDirOf(state, name);
  const key = `${dir}\0${await fileStamps(RUN_KEY_FILES.map((file) => runDirPath(dir, file)))}`;
  const cached = state.runs.get(key);
  if (cached) return cached;
  const run = openReviewRun(dir, state.cwd, state.logger);
  state.runs.set(key, run);
  run.catch(() => state.runs.delete(key));
  return run;
}

async function serveRun(state: ViewState, { res }: RequestContext, name: string, rest: string[]): Promise<void> {
  const dir = await runDirOf(state, name);
  if (rest.length === 0 || rest.at(-1) === '') {
    const listed = (await listRuns(state.reportsDir)).runs.find((r) => r.name === name);
    if (!listed) throw new HttpError(404, `${name} is not a run directory`);
    if (listed.has_report && !listed.in_progress) {
      res.writeHead(302, {
        ...baseHeaders(STATIC_CSP),
        location: `/runs/${encodeURIComponent(name)}/${RUN_DIR_FILES.reportHtml}`,
      });
      res.end();
    } else sendPage(res, 200, renderProgressPage(state.templates, listed));
    return;
  }
  const file = await resolveConfined(dir, rest);
  if (!file) throw new HttpError(404, `no file ${rest.join('/')} in run ${name}`);
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()];
  // Reports carry their own CSP; the header repeats it so a file without one gets no more rights.
  const csp = `${STATIC_CSP}; script-src '${(await loadTemplates()).scriptHash}'`;
  await sendFile(res, file, `${rest.join('/')} in run ${name}`, {
    ...baseHeaders(csp),
    'content-type': type ?? 'application/octet-stream',
    ...(type ? {} : { 'content-disposition': 'attachment' }),
  });
}

async function editTruth(state: ViewState, { req, res }: RequestContext, name: string): Promise<void> {
  const ifMatch = req.headers['if-match'];
  if (typeof ifMatch !== 'string' || ifMatch === '')
    throw new HttpError(428, 'If-Match is required: send the ETag the item was loaded with');
  const body = await readJsonBody(req);
  const kind = body.kind;
  if (kind !== 'field' && kind !== 'page') throw new HttpError(400, 'kind must be "field" or "page"');
  if (typeof body.document !== 'string') throw new HttpError(400, 'document must be a document id');
  if (kind === 'field' && typeof body.path !== 'string') throw new HttpError(400, 'path must be a field path');
  if (kind === 'page' && !Number.isInteger(body.page)) throw new HttpError(400, 'page must be a page number');
  if (!('value' in body)) throw new HttpError(400, 'value is required');
  const result = await state.queues.edit(await reviewRun(state, name), {
    document: body.document,
    kind,
    path: kind === 'field' ? (body.path as string) : null,
    page: kind === 'page' ? (body.page as number) : null,
    value: body.value as Json,
    source: optionalText(body, 'source', 200) || 'edit',
    note: optionalText(body, 'note', 2000),
    run: name,
    ifMatch,
  });
  state.logger.info(
    `truth of ${result.change.document} ${result.change.field_path ?? `page ${result.change.page}`}: ${JSON.stringify(result.change.old)} → ${JSON.stringify(result.change.new)} (${result.change.source})`,
  );
  res.setHeader('etag', result.etag);
  sendJson(res, 200, result);
}

async function addRuleCheck(state: ViewState, { req, res }: RequestContext, name: string): Promise<void> {
  const ifMatch = req.headers['if-match'];
  if (typeof ifMatch !== 'string' || ifMatch === '')
    throw new HttpError(428, 'If-Match is required: send the ETag of checks.jsonl (GET …/checks)');
  const body = await readJsonBody(req);
  if (typeof body.document !== 'string') throw new HttpError(400, 'document must be a document id');
  if (!Number.isInteger(body.page) || (body.page as number) < 1)
    throw new HttpError(400, 'page must be a page number (1-based)');
  if (typeof body.type !== 'string') throw new HttpError(400, 'type must be present, absent or order');
  const run = await reviewRun(state, name);
  const doc = run.dataset.documents.find((d) => d.id === body.document);
  if (!doc) throw new HttpError(404, `no document "${body.document}" in the run's dataset`);
  const result = await addCheck(run.datasetDir, doc, {
    document: doc.id,
    page: body.page as number,
    type: body.type,
    text: body.text,
    before: body.before,
    after: body.after,
    category: body.category,
    source: optionalText(body, 'source', 200) || 'truth',
    note: optionalText(body, 'note', 2000),
    run: name,
    ifMatch,
  });
  state.logger.info(`check ${result.change.check} added to checks.jsonl for ${doc.id} page ${result.change.page}`);
  res.setHeader('etag', result.etag);
  sendJson(res, 200, result);
}

/** The HTML pages and run files. */
function pageRoutes(state: ViewState): Route<RequestContext>[] {
  const { reportsDir, logger } = state;
  return [
    {
      method: 'GET',
      pattern: '/',
      handle: async ({ res }) => {
        const { runs: listed, skipped } = await listRuns(reportsDir);
        sendPage(res, 200, renderIndexPage(state.templates, path.basename(reportsDir), listed, skipped));
      },
    },
    {
      method: 'GET',
      pattern: '/history',
      handle: async ({ res }) => {
        const { rows, skipped } = await scanRuns(reportsDir, logger);
        const html = (await loadGateTemplates()).history({
          view: buildHistoryView(
            rows.map((r) => ({ ...r, dir: `runs/${r.dir}` })),
            skipped,
            'docbench history',
          ),
        });
        sendPage(res, 200, { html, csp: STATIC_CSP });
      },
    },
    {
      method: 'GET',
      pattern: '/runs/:run/*path',
      handle: (context, { named, rest }) => serveRun(state, context, named.run!, rest),
    },
    {
      method: 'GET',
      pattern: '/diff/:base/:candidate',
      handle: async ({ res }, { named }) => {
        const [baseDir, candidateDir] = [await runDirOf(state, named.base!), await runDirOf(state, named.candidate!)];
        const { result } = await diffRunDirectories(baseDir, candidateDir, {
          settings: DEFAULT_DIFF_SETTINGS,
          outDir: null,
          allowDatasetChange: true,
          logger,
        });
        sendPage(res, 200, { html: await renderDiffHtml(result), csp: STATIC_CSP });
      },
    },
    {
      method: 'GET',
      pattern: '/review/:run',
      handle: async ({ res }, { named }) => {
        await runDirOf(state, named.run!);
        sendPage(res, 200, renderReviewPage(state.templates, named.run!, state.reviewPageSize));
      },
    },
    {
      // Browsers ask for it on every page; no icon is not an error worth a 404 in the console.
      method: 'GET',
      pattern: '/favicon.ico',
      handle: async ({ res }) => {
        res.writeHead(204, baseHeaders(STATIC_CSP));
        res.end();
      },
    },
  ];
}

/** The review's API: its queue, page images, truth edits and re-scoring. */
function apiRoutes(state: ViewState): Route<RequestContext>[] {
  return [
    {
      method: 'GET',
      pattern: '/api/runs/:run/review',
      handle: async ({ res, url }, { named }) => {
        const offset = wholeParameter(url, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
        const limit = wholeParameter(url, 'limit', 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
        sendJson(res, 200, await state.queues.page(await reviewRun(state, named.run!), offset, limit));
      },
    },
    {
      method: 'GET',
      pattern: '/api/runs/:run/page',
      handle: async ({ res, url }, { named }) => {
        const run = await reviewRun(state, named.run!);
        const doc = run.dataset.documents.find((d) => d.id === url.searchParams.get('document'));
        if (!doc)
          throw new HttpError(404, `no document "${url.searchParams.get('document') ?? ''}" in the run's dataset`);
        const png = await renderDocumentPage(doc, Number(url.searchParams.get('page') ?? '1'));
        res.writeHead(200, {
          ...baseHeaders(STATIC_CSP),
          'content-type': 'image/png',
          'content-length': String(png.length),
        });
        res.end(png);
      },
    },
    {
      method: 'POST',
      pattern: '/api/runs/:run/truth',
      handle: (context, { named }) => editTruth(state, context, named.run!),
    },
    {
      method: 'GET',
      pattern: '/api/runs/:run/checks',
      handle: async ({ res }, { named }) => {
        const etag = await checksEtag((await reviewRun(state, named.run!)).datasetDir);
        res.setHeader('etag', etag);
        sendJson(res, 200, { etag });
      },
    },
    {
      method: 'POST',
      pattern: '/api/runs/:run/checks',
      handle: (context, { named }) => addRuleCheck(state, context, named.run!),
    },
    {
      method: 'POST',
      pattern: '/api/runs/:run/rescore',
      handle: async ({ res }, { named }) => {
        const name = named.run!;
        const run = await reviewRun(state, name);
        const pending =
          state.rescoring.get(name) ?? rescoreRun(run, state.logger).finally(() => state.rescoring.delete(name));
        state.rescoring.set(name, pending);
        sendJson(res, 200, { figures: await pending });
      },
    },
  ];
}

/** The printed URL: its token becomes the session cookie, and the address bar loses it. */
function startSession(state: ViewState, res: ServerResponse, url: URL, given: string): void {
  if (!sameToken(given, state.token))
    throw new HttpError(
      403,
      "this link's session token is not the server's",
      'open the URL docbench view printed when it started',
    );
  url.searchParams.delete(TOKEN_PARAM);
  // One leading slash: `/.//example.com` normalises to `//example.com`, which a browser reads as another host.
  res.writeHead(302, {
    ...baseHeaders(STATIC_CSP),
    'set-cookie': sessionCookie(state.port, state.token),
    location: `${url.pathname.replace(/^\/+/, '/')}${url.search}`,
  });
  res.end();
}

/** The checks every request passes, in one place, then its route. */
async function handleRequest(
  state: ViewState,
  routes: Route<RequestContext>[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://view.invalid');
  const { hosts, token, port } = state;
  // DNS rebinding: a page of another site whose name now points at 127.0.0.1 sends its own Host.
  if (state.loopback && !hosts.has((req.headers.host ?? '').toLowerCase()))
    throw new HttpError(421, `this server answers only to ${[...hosts].join(', ')}`);
  const given = url.searchParams.get(TOKEN_PARAM);
  if (given !== null && isReadRequest(req)) {
    startSession(state, res, url, given);
    return;
  }
  const via = authenticate(req, token, port);
  if (via === null)
    throw new HttpError(
      403,
      'this server needs its session',
      'open the URL docbench view printed when it started (it carries the session token once)',
    );
  if (!isReadRequest(req) && !mayChangeState(req, via))
    throw new HttpError(
      403,
      "a change must come from the view's own pages (Origin), or carry the token in the x-docbench-token header",
    );
  const match = matchRoute(routes, req.method ?? '', pathSegments(url));
  if (match === null) throw new HttpError(404, `nothing at ${url.pathname}`);
  if ('allowed' in match) {
    res.setHeader('allow', match.allowed.join(', '));
    throw new HttpError(405, `${req.method ?? ''} is not allowed on ${url.pathname}`);
  }
  await match.route.handle({ req, res, url }, match.params);
}

/** A failed request's answer: JSON for the API and changes, a message page otherwise; unexpected errors are logged. */
function sendError(state: ViewState, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const api = (req.url ?? '').startsWith('/api/');
  let status = 500;
  let message = error instanceof Error ? error.message : String(error);
  let hint: string | undefined;
  let extra: Record<string, unknown> = {};
  if (error instanceof HttpError) ({ status, hint } = { status: error.status, hint: error.hint });
  else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    // A file removed while this request read it (a run being re-scored, a report rebuilt): try again.
    status = 404;
    message = 'a file this page needs was removed while it was read';
    hint = 'reload the page';
  } else if (error instanceof StaleTruthError) {
    status = 412;
    hint = error.hint;
    extra = { code: error.code, etag: error.etag };
  } else if (isDocbenchError(error)) {
    status = 400;
    hint = error.hint;
    // A refused field is named for the page (e.g. a rule check's `text`).
    const subject = error instanceof UsageError ? error.subject : undefined;
    extra = { code: error.code, ...(subject === undefined ? {} : { subject }) };
  } else
    state.logger.error(
      `view: ${req.method ?? ''} ${logPath(req)}: ${error instanceof Error ? (error.stack ?? error.message) : message}`,
    );
  if (status === 500) message = 'internal error (see the terminal running docbench view)';
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (api || !isReadRequest(req))
    sendJson(res, status, { error: status, message, ...(hint ? { hint } : {}), ...extra });
  else sendPage(res, status, renderMessagePage(state.templates, `HTTP ${status}`, message, hint));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The address to print: a wildcard host is reached through loopback. */
function baseUrlOf(host: string, port: number): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown === '0.0.0.0' ? '127.0.0.1' : shown === '[::]' ? '[::1]' : shown}:${port}`;
}

/** Stops listening and ends open connections (a browser keeps some alive). */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const state = createViewState(options, await loadViewTemplates());
  // Every page and API call; each needs the session (checked once, in `handleRequest`, before any route runs).
  const routes = [...pageRoutes(state), ...apiRoutes(state)];
  const server = createServer((req, res) => {
    handleRequest(state, routes, req, res).catch((error: unknown) => sendError(state, req, res, error));
  });
  await listen(server, options.port ?? 0, state.host);
  state.port = (server.address() as AddressInfo).port;
  state.hosts = acceptedHosts(state.host, state.port);
  const baseUrl = baseUrlOf(state.host, state.port);
  return {
    url: `${baseUrl}/?${TOKEN_PARAM}=${state.token}`,
    baseUrl,
    token: state.token,
    close: () => closeServer(server),
  };
}

/** The request's path for the log, never its query (the printed URL's token is there). */
function logPath(req: IncomingMessage): string {
  return (req.url ?? '').split('?')[0]!;
}

/** An optional whole-number query parameter within [min, max]; anything else is a 400 naming it. */
function wholeParameter(url: URL, name: string, min: number, max: number): number | undefined {
  const text = url.searchParams.get(name);
  if (text === null) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new HttpError(400, `${name} must be a whole number from ${min} to ${max}`);
  return value;
}
