/**
 * A deterministic stand-in for the service, for runner tests: it reads what tiny-dataset.ts documents carry
 * and answers every endpoint in the interface's shapes, with scripted faults and a log of every request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted answer instead of the normal one: a status with a body, a dropped connection, or `respond`,
 * which writes the response itself (huge, dripping or never-ending bodies). `respond` faults are logged
 * with the status they write (200 unless set before the first write).
 */
export type Fault =
  | { status: number; body?: string; headers?: Record<string, string> }
  | 'drop'
  | { respond: (res: ServerResponse) => void | Promise<void> };

export interface FakeRequest {
  endpoint: string;
  documentId: string;
  fast: boolean | null;
  /** 1-based attempt number of this (endpoint, document, mode). */
  attempt: number;
  status: number | 'dropped';
  apiKey: string | null;
}

export interface FakeServiceOptions {
  /** When set, requests without this key get 401. */
  apiKey?: string;
  latencyMs?: number;
  /** Decides a fault for an attempt; null answers normally. */
  fault?: (request: { endpoint: string; documentId: string; fast: boolean | null; attempt: number }) => Fault | null;
}

export interface FakeService {
  baseUrl: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const requests: FakeRequest[] = [];
  const attempts = new Map<string, number>();
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(JSON.stringify({ error: { code: 'fake_failure', message: String(error) } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = await new Response(Buffer.concat(chunks), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
    const file = form.get('file') as File | null;
    const endpoint = (req.url ?? '').replace(/^\/(v1\/)?/, '');
    const documentId = file ? file.name.replace(/\.[^.]+$/, '') : 'url';
    const fastPart = form.get('fast');
    const fast = fastPart === null ? null : fastPart === 'true';
    const attemptKey = `${endpoint}|${documentId}|${fast}`;
    const attempt = (attempts.get(attemptKey) ?? 0) + 1;
    attempts.set(attemptKey, attempt);
    const apiKey =
      (req.headers['x-api-key'] as string | undefined) ?? req.headers.authorization?.replace(/^Bearer /, '') ?? null;
    const log = (status: number | 'dropped') => requests.push({ endpoint, documentId, fast, attempt, status, apiKey });

    if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
    if (options.apiKey !== undefined && apiKey !== options.apiKey) {
      log(401);
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'unauthorized', message: 'bad key' } }));
      return;
    }
    const fault = options.fault?.({ endpoint, documentId, fast, attempt }) ?? null;
    if (fault === 'drop') {
      log('dropped');
      req.socket.destroy();
      return;
    }
    if (fault && 'respond' in fault) {
      log(200);
      await fault.respond(res);
      return;
    }
    if (fault) {
      log(fault.status);
      res
        .writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers })
        .end(fault.body ?? JSON.stringify({ error: { code: 'fault', message: 'scripted' } }));
      return;
    }
    const content = file ? readDocument(Buffer.from(await file.arrayBuffer())) : { data: {}, markdown: '' };
    log(200);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(answer(endpoint, content, fast, documentId)));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function answer(
    endpoint: string,
    content: { data: Record<string, unknown>; markdown: string },
    fast: boolean | null,
    documentId: string,
  ): unknown {
    switch (endpoint) {
      case 'extract':
        // The fast path "misreads" the total, so fast and slow differ measurably.
        return fast
          ? { response: JSON.stringify({ ...content.data, total: String(content.data.total) }), method: 'fast' }
          : { response: JSON.stringify(content.data), method: 'slow', pages_processed: 1, confidence_score: 90 };
      case 'compare':
        return {
          success: true,
          pages: [{ content: content.markdown, width: 612, height: 792 }],
          dashboard_url: `${baseUrl}/evals?filename=${documentId}`,
          comparison_id: documentId,
        };
      case 'split':
        return {
          pages: [
            {
              page: 1,
              width: 612,
              height: 792,
              bounding_boxes: [
                {
                  bounding_box: { min_x: 1, min_y: 1, max_x: 4, max_y: 1.5 },
                  content: content.markdown.split('\n')[0],
                },
              ],
            },
          ],
        };
      default:
        return {
          status: 'success',
          document_id: documentId,
          content: { text: content.markdown, structured_data: {} },
          metadata: { page_count: 1, processing_time_ms: 5 },
        };
    }
  }
}

function readDocument(bytes: Buffer): { data: Record<string, unknown>; markdown: string } {
  const match = /% docbench-test (\S+)/.exec(bytes.toString('latin1'));
  if (!match) return { data: {}, markdown: '' };
  return JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8')) as {
    data: Record<string, unknown>;
    markdown: string;
  };
}
