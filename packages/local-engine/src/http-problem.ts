/** Errors the service answers with: a status and the JSON body every error shares ({"error":{code,message}}). */
import type { ServerResponse } from 'node:http';

export class HttpProblem extends Error {
  override readonly name = 'HttpProblem';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Writes a JSON body with its length. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendProblem(res: ServerResponse, problem: HttpProblem): void {
  const error: Record<string, unknown> = { code: problem.code, message: problem.message };
  if (problem.details) error.details = problem.details;
  sendJson(res, problem.status, { error }, problem.headers);
}
