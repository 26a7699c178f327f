/**
 * The HTTP side of the local service: routing, auth per the header table of docs/service-interface.md §5, fault injection,
 * latency, and JSON errors for everything that goes wrong.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './contract.js';
import type { Engine } from './engine.js';
import {
  buildExtractResult,
  buildImageMetadata,
  buildMarkdownPages,
  buildProcessResult,
  buildSplitResult,
  parseSchemaPart,
  type ProcessFlags,
} from './endpoints.js';
import type { EvalsStore } from './evals-store.js';
import { renderEvalsIndex, renderEvalsPage } from './evals-page.js';
import { HttpProblem, sendJson, sendProblem } from './http-problem.js';
import type { FaultMode, ResolvedServiceOptions } from './options.js';
import { readBooleanPart, readDocuments, readForm, type ParsedForm } from './read-request.js';

type Route = 'process' | 'extract' | 'split' | 'compare' | 'markdown';

const ROUTES: Record<string, Route> = {
  '/v1/process': 'process',
  '/extract': 'extract',
  '/split': 'split',
  '/compare': 'compare',
  '/markdown': 'markdown',
};

/** §5: /v1/process takes a Bearer token, the others x-api-key (header names are case-insensitive). */
const AUTH_HEADER: Record<Route | 'evals', 'bearer' | 'x-api-key' | 'either'> = {
  process: 'bearer',
  extract: 'x-api-key',
  split: 'x-api-key',
  compare: 'x-api-key',
  markdown: 'x-api-key',
  evals: 'either',
};

export interface ServerDeps {
  options: ResolvedServiceOptions;
  engine: Engine;
  store: EvalsStore;
  logger: Logger;
  pickFault: () => FaultMode | null;
  /** The base URL, known once listening. */
  baseUrl: () => string;
}

function sameSecret(given: string, expected: string): boolean {
  // Hash both so the comparison is constant-time whatever the lengths.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function checkAuth(req: IncomingMessage, route: Route | 'evals', apiKey: string | undefined): void {
  if (!apiKey) return;
  const scheme = AUTH_HEADER[route];
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
  const headerKey = req.headers['x-api-key'];
  const xKey = Array.isArray(headerKey) ? headerKey[0] : headerKey;
  const given = scheme === 'bearer' ? bearer : scheme === 'x-api-key' ? xKey : (xKey ?? bearer);
  const expectedHeader =
    scheme === 'bearer'
      ? 'Authorization: Bearer <key>'
      : scheme === 'x-api-key'
        ? 'x-api-key: <key>'
        : 'x-api-key: <key> or Authorization: Bearer <key>';
  if (!given)
    throw new HttpProblem(
      401,
      'unauthorized',
      `Missing API key: send it as "${expectedHeader}"`,
      undefined,
      scheme === 'bearer' ? { 'www-authenticate': 'Bearer' } : {},
    );
  if (!sameSecret(given, apiKey))
    throw new HttpProblem(
      401,
      'unauthorized',
      'Invalid API key',
      undefined,
      scheme === 'bearer' ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {},
    );
}

function processFlags(form: ParsedForm): ProcessFlags {
  const format = (form.text('output_format') ?? 'json').trim().toLowerCase() || 'json';
  if (format !== 'json' && format !== 'text' && format !== 'markdown') {
    throw new HttpProblem(
      400,
      'invalid_parameter',
      `output_format must be json, text or markdown, got "${format.slice(0, 40)}"`,
      { allowed: ['json', 'text', 'markdown'] },
    );
  }
  return {
    outputFormat: format,
    boundingBoxes: readBooleanPart(form, 'include_bounding_boxes'),
    barcodes: readBooleanPart(form, 'extract_metadata'),
    signatures: readBooleanPart(form, 'extract_signature'),
    images: readBooleanPart(form, 'extract_images'),
  };
}

async function handleApi(route: Route, req: IncomingMessage, deps: ServerDeps): Promise<unknown> {
  const { options, engine } = deps;
  const started = performance.now();
  const form = await readForm(req, options.maxUploadBytes);
  switch (route) {
    case 'process': {
      const flags = processFlags(form);
      const [document] = await readDocuments(form, options);
      return buildProcessResult(await engine.analyse(document!), flags, started);
    }
    case 'extract': {
      const schema = parseSchemaPart(form.text('schema'));
      const fast = readBooleanPart(form, 'fast');
      const withImages = readBooleanPart(form, 'imageMetadataDetect');
      const documents = await readDocuments(form, options);
      const { docs, pages } = await engine.analyseAll(documents);
      const body = buildExtractResult(pages, schema, fast, options.locale);
      if (withImages) body.image_metadata = await buildImageMetadata(docs, pages);
      return body;
    }
    case 'split': {
      const [document] = await readDocuments(form, options);
      return buildSplitResult((await engine.analyse(document!)).pages);
    }
    case 'markdown': {
      const [document] = await readDocuments(form, options);
      return { success: true, pages: buildMarkdownPages((await engine.analyse(document!)).pages), failed_pages: [] };
    }
    case 'compare': {
      const [document] = await readDocuments(form, options);
      const doc = await engine.analyse(document!);
      const pages = buildMarkdownPages(doc.pages);
      // docs/service-interface.md §4.4: the reference names the part original_results, the example sends originalResults.
      const baseline = form.text('original_results') ?? form.text('originalResults') ?? null;
      const record = await deps.store.save({ filename: document!.filename, document_hash: doc.hash, pages, baseline });
      return {
        success: true,
        pages,
        failed_pages: [],
        dashboard_url: `${deps.baseUrl()}/evals?filename=${record.id}`,
        comparison_id: record.id,
      };
    }
  }
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    // The page is static: forbid scripts and remote loads even if escaping ever failed.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
  });
  res.end(html);
}

async function handleEvals(url: URL, req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  checkAuth(req, 'evals', deps.options.apiKey);
  const filename = url.searchParams.get('filename');
  const entries = await deps.store.list();
  if (filename === null) return sendHtml(res, 200, renderEvalsIndex(entries));
  const record = await deps.store.load(filename);
  sendHtml(res, 200, renderEvalsPage(record, entries));
}

/** Applies an injected fault. Returns true when the response is already handled. */
function applyFault(fault: FaultMode, req: IncomingMessage, res: ServerResponse): boolean {
  switch (fault) {
    case '429':
      sendProblem(
        res,
        new HttpProblem(429, 'rate_limited', 'Too many requests (injected fault)', undefined, { 'retry-after': '1' }),
      );
      return true;
    case '500':
      sendProblem(res, new HttpProblem(500, 'internal_error', 'Internal error (injected fault)'));
      return true;
    case '503-html': {
      const html =
        '<!doctype html><html><head><title>503 Service Unavailable</title></head><body><h1>503 Service Unavailable</h1><p>The upstream is overloaded (injected fault).</p></body></html>';
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
      res.end(html);
      return true;
    }
    case 'drop':
      req.socket.destroy();
      return true;
    case 'truncated-json':
      return false;
  }
}

/** Sends a JSON success body, cut in half when the injected fault asks for a truncated body. */
function sendResult(res: ServerResponse, body: unknown, truncate: boolean): void {
  if (!truncate) {
    sendJson(res, 200, body);
    return;
  }
  const text = JSON.stringify(body);
  const cut = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(cut) });
  res.end(cut);
}

/** Creates the request listener. */
export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://local');
    const route = ROUTES[url.pathname];
    const finish = (status: number) =>
      deps.logger.debug(
        `local service: ${req.method} ${url.pathname} → ${status} in ${Math.round(performance.now() - started)} ms`,
      );
    res.on('finish', () => finish(res.statusCode));
    const run = async () => {
      if (url.pathname === '/evals' || url.pathname === '/evals/') {
        if (req.method !== 'GET' && req.method !== 'HEAD')
          throw new HttpProblem(
            405,
            'method_not_allowed',
            `${req.method} is not allowed on /evals; use GET`,
            undefined,
            { allow: 'GET' },
          );
        return handleEvals(url, req, res, deps);
      }
      if (url.pathname === '/health' && req.method === 'GET') return sendJson(res, 200, { status: 'ok' });
      if (!route)
        throw new HttpProblem(
          404,
          'not_found',
          `No endpoint ${url.pathname}: use /v1/process, /extract, /split, /compare, /markdown or /evals`,
        );
      if (req.method !== 'POST')
        throw new HttpProblem(
          405,
          'method_not_allowed',
          `${req.method} is not allowed on ${url.pathname}; use POST`,
          undefined,
          { allow: 'POST' },
        );
      if (deps.options.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, deps.options.latencyMs));
      const fault = deps.pickFault();
      if (fault && applyFault(fault, req, res)) {
        // The body was not read: drain it so the client is not left writing into a closed socket.
        req.resume();
        return;
      }
      checkAuth(req, route, deps.options.apiKey);
      const body = await handleApi(route, req, deps);
      sendResult(res, body, fault === 'truncated-json');
    };
    run().catch((error: unknown) => {
      // The socket is gone (null or destroyed) when the client hung up: nobody to answer.
      if (res.headersSent || !req.socket || req.socket.destroyed) return;
      if (error instanceof HttpProblem) {
        // When the body was not read (early 413, auth), drop the connection after answering.
        if (!req.complete) res.setHeader('connection', 'close');
        sendProblem(res, error);
        if (!req.complete) req.resume();
        return;
      }
      deps.logger.error(
        `local service: ${req.method} ${url.pathname} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      sendProblem(
        res,
        new HttpProblem(
          500,
          'internal_error',
          `The document could not be processed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    });
  };
}
