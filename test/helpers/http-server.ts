/**
 * A real HTTP server for integration tests: node:http on 127.0.0.1, port 0, with a handler per test. Every
 * request is recorded (method, url, headers with their original case, raw body) before the handler runs, so
 * a test can assert on exactly what went over the wire. `close()` also drops open and hanging connections,
 * so a handler that never answers cannot keep the test process alive.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/process`. */
  url: string;
  /** Header names lower-cased (node:http). */
  headers: IncomingHttpHeaders;
  /** Alternating name/value pairs with the case the client sent. */
  rawHeaders: string[];
  body: Buffer;
}

/**
 * Answers one request. `index` is the 0-based count of requests this server has seen (for "fail twice,
 * then succeed" handlers). The handler may leave the response open (a hanging service) or destroy the socket.
 */
export type TestHandler = (request: RecordedRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startHttpServer(handler: TestHandler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      };
      const index = requests.push(recorded) - 1;
      Promise.resolve(handler(recorded, res, index)).catch((error: unknown) => {
        // A broken handler is a broken test: answer 599 so the failure is visible in the client's outcome.
        if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`test handler failed: ${String(error)}`);
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Writes a JSON response. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Writes a text response (for bodies that are not JSON). */
export function sendText(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** Parses a recorded multipart/form-data body with the web-standard parser, so tests never hand-parse MIME. */
export async function readMultipart(request: RecordedRequest): Promise<FormData> {
  const contentType = request.headers['content-type'];
  if (!contentType?.startsWith('multipart/form-data'))
    throw new Error(`request is not multipart/form-data: ${String(contentType)}`);
  return new Response(new Uint8Array(request.body), { headers: { 'content-type': contentType } }).formData();
}

/** Every entry of a form in order, as [name, value] (the project's lib settings give FormData no iterator). */
export function formEntries(form: FormData): [string, FormDataEntryValue][] {
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, name) => {
    entries.push([name, value]);
  });
  return entries;
}

/** The value of a header as the client spelled its name (case-sensitive), or undefined. */
export function rawHeader(request: RecordedRequest, name: string): string | undefined {
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i] === name) return request.rawHeaders[i + 1];
  }
  return undefined;
}
