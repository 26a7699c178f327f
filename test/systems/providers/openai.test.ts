/**
 * `openai` against a fake OpenAI-compatible server on 127.0.0.1 that speaks the documented wire format:
 * - POST {baseUrl}/chat/completions, `Authorization: Bearer <key>`, messages with `image_url` content parts
 *   (https://platform.openai.com/docs/api-reference/chat/create, "Create chat completion");
 * - `response_format: {type: "json_schema", json_schema: {name, schema, strict: true}}` whose schema must meet
 *   strict mode's rules: every property required, `additionalProperties: false`
 *   (https://platform.openai.com/docs/guides/structured-outputs, "Supported schemas");
 * - the response's `choices[0].message.content`, `choices[0].logprobs.content[].logprob` and
 *   `usage.prompt_tokens` / `usage.completion_tokens`;
 * - error bodies `{"error": {"message", "type", "param", "code"}}` with 401 invalid_api_key, 404
 *   model_not_found, 429 rate limits (Retry-After) and 429 insufficient_quota
 *   (https://platform.openai.com/docs/guides/error-codes).
 */
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { openaiKind } from '../../../src/systems/kinds/openai.js';
import type { CompareResult, ExtractResult } from '../../../src/service/types.js';
import { PAGE_BREAK } from '../../../src/types.js';
import { startHttpServer, type RecordedRequest, type TestServer } from '../../helpers/http-server.js';
import { compareRequest, createSystem, drawPdf, extractRequest, makeCall, makeContext, sendJson } from './context.js';
import { parseKindOptions } from '../../../src/systems/config.js';

const KEY = 'sk-test-0123456789abcdef';
const SCHEMA = {
  type: 'object',
  properties: {
    patient: { type: 'string', description: 'Patient name' },
    total: { type: 'number', minimum: 0 },
    service_date: { type: 'string', format: 'date' },
    codes: {
      type: 'array',
      items: { type: 'object', properties: { cpt: { type: 'string' }, units: { type: 'integer' } }, required: ['cpt'] },
    },
  },
  required: ['patient'],
};

interface ChatBody {
  model: string;
  temperature: number;
  logprobs?: boolean;
  messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
  response_format?: { type: string; json_schema?: { name: string; strict: boolean; schema: Record<string, unknown> } };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function completion(content: string, usage: { prompt_tokens: number; completion_tokens: number }, logprobs?: number[]) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'vision-1',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        finish_reason: 'stop',
        logprobs: logprobs
          ? { content: logprobs.map((logprob, i) => ({ token: `t${i}`, logprob, bytes: [], top_logprobs: [] })) }
          : null,
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** Strict mode's rules, checked as the server does: every object closed and every property required. */
function assertStrict(node: unknown, at = '$'): void {
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  if (schema.properties) {
    expect(schema.additionalProperties, `${at}.additionalProperties`).toBe(false);
    expect(schema.required, `${at}.required`).toEqual(Object.keys(schema.properties as object));
    for (const [key, child] of Object.entries(schema.properties as object)) assertStrict(child, `${at}.${key}`);
  }
  if (schema.items) assertStrict(schema.items, `${at}[]`);
  for (const banned of ['minimum', 'format', 'minLength', 'pattern'])
    expect(schema[banned], `${at}.${banned}`).toBeUndefined();
}

function body(request: RecordedRequest): ChatBody {
  return JSON.parse(request.body.toString('utf8')) as ChatBody;
}

function images(request: RecordedRequest): string[] {
  const user = body(request).messages.find((m) => m.role === 'user')!;
  return (user.content as { type: string; image_url?: { url: string } }[])
    .filter((p) => p.type === 'image_url')
    .map((p) => p.image_url!.url);
}

const options = (url: string, extra: Record<string, unknown> = {}) => ({
  baseUrl: `${url}/v1`,
  model: 'vision-1',
  apiKeyEnv: 'TEST_OPENAI_KEY',
  dpi: 72,
  ...extra,
});
const context = () => makeContext('gpt', { TEST_OPENAI_KEY: KEY }, ['TEST_OPENAI_KEY']);

describe('openai extract', () => {
  it('sends the pages as PNG data URLs with a strict json_schema, maps the answer back, prices tokens and reads logprobs', async () => {
    server = await startHttpServer((request, response) => {
      if (request.headers.authorization !== `Bearer ${KEY}`)
        return sendJson(response, 401, {
          error: {
            message: 'Incorrect API key provided',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        });
      const chat = body(request);
      expect(chat.response_format?.type).toBe('json_schema');
      expect(chat.response_format?.json_schema?.strict).toBe(true);
      assertStrict(chat.response_format?.json_schema?.schema);
      // Optional fields answered null, as strict mode makes the model do.
      sendJson(
        response,
        200,
        completion(
          JSON.stringify({
            patient: 'Amanda Patel',
            total: 173.5,
            service_date: null,
            codes: [{ cpt: '99213', units: null }],
          }),
          { prompt_tokens: 1200, completion_tokens: 40 },
          [-0.1, -0.2, -0.3],
        ),
      );
    });
    const system = await createSystem(openaiKind, 'gpt', options(server.url, { logprobs: true }), context());
    const outcome = await system.call(
      makeCall(
        await drawPdf([[{ text: 'A', x: 72, y: 72, size: 12 }], [{ text: 'B', x: 72, y: 72, size: 12 }]]),
        'application/pdf',
        extractRequest(SCHEMA),
      ),
    );
    await system.close();
    if (!outcome.ok) throw outcome.error;
    const result = outcome.result as ExtractResult;
    expect(result.data).toEqual({ patient: 'Amanda Patel', total: 173.5, codes: [{ cpt: '99213' }] });
    expect(result.pagesProcessed).toBe(2);
    // exp(mean(-0.1, -0.2, -0.3)) = exp(-0.2) = 0.81873…
    expect(result.confidence).toBe(81.87);
    expect(outcome.usage).toEqual({ pages: 2, inputTokens: 1200, outputTokens: 40 });
    const [request] = server.requests;
    expect(request!.url).toBe('/v1/chat/completions');
    const sent = images(request!);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^data:image\/png;base64,/);
    // At 72 dpi a letter page is 612 × 792 pixels.
    const meta = await sharp(Buffer.from(sent[0]!.split(',')[1]!, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([612, 792]);
    expect(body(request!)).toMatchObject({ model: 'vision-1', temperature: 0, logprobs: true });
    expect(JSON.stringify(outcome.raw)).not.toContain(KEY);
    expect(outcome.raw).toMatchObject({ structuredOutput: 'json_schema' });
  });

  it('falls back to json_object with the schema in the prompt when the server rejects json_schema, and records it', async () => {
    server = await startHttpServer((request, response) => {
      const chat = body(request);
      if (chat.response_format?.type === 'json_schema') {
        return sendJson(response, 400, {
          error: {
            message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
            type: 'invalid_request_error',
            param: 'response_format',
            code: null,
          },
        });
      }
      expect(chat.response_format).toEqual({ type: 'json_object' });
      expect(chat.messages[0]!.content).toContain(JSON.stringify(SCHEMA));
      sendJson(
        response,
        200,
        completion('```json\n{"patient": "Amanda Patel"}\n```', { prompt_tokens: 10, completion_tokens: 5 }),
      );
    });
    const system = await createSystem(openaiKind, 'gpt', options(server.url), context());
    const call = makeCall(
      await drawPdf([[{ text: 'A', x: 72, y: 72, size: 12 }]]),
      'application/pdf',
      extractRequest(SCHEMA),
    );
    const first = await system.call(call);
    const second = await system.call(call);
    await system.close();
    if (!first.ok || !second.ok) throw new Error('extract failed');
    expect((first.result as ExtractResult).data).toEqual({ patient: 'Amanda Patel' });
    expect((first.result as ExtractResult).responseForm).toBe('embedded');
    expect((first.result as ExtractResult).confidence).toBeNull();
    expect(first.raw).toMatchObject({
      structuredOutput: 'json_object',
      fallbackReason: expect.stringContaining('json_schema'),
    });
    // Rejected once, then json_object straight away: 2 + 1 requests.
    expect(server.requests.map((r) => body(r).response_format?.type)).toEqual([
      'json_schema',
      'json_object',
      'json_object',
    ]);
    // Only the answered call's tokens are counted.
    expect(first.usage).toEqual({ pages: 1, inputTokens: 10, outputTokens: 5 });
  });
});

describe('openai compare', () => {
  it('transcribes one page per call and sums the tokens', async () => {
    server = await startHttpServer((request, response, index) => {
      expect(images(request)).toHaveLength(1);
      sendJson(
        response,
        200,
        completion(index === 0 ? '```markdown\n# Page one\n```' : 'Page two', {
          prompt_tokens: 100,
          completion_tokens: 7,
        }),
      );
    });
    const system = await createSystem(openaiKind, 'gpt', options(server.url), context());
    const outcome = await system.call(
      makeCall(
        await drawPdf([[{ text: 'A', x: 72, y: 72, size: 12 }], [{ text: 'B', x: 72, y: 72, size: 12 }]]),
        'application/pdf',
        compareRequest,
      ),
    );
    await system.close();
    if (!outcome.ok) throw outcome.error;
    const result = outcome.result as CompareResult;
    expect(result.pages.map((p) => p.content)).toEqual(['# Page one', 'Page two']);
    expect(result.pages[0]).toMatchObject({ width: 612, height: 792 });
    expect(outcome.usage).toEqual({ pages: 2, inputTokens: 200, outputTokens: 14 });
  });

  it('transcribes all pages in one call split at the page-break marker; a missing page counts as failed', async () => {
    server = await startHttpServer((request, response) => {
      expect(images(request)).toHaveLength(3);
      expect(body(request).messages[0]!.content).toContain(PAGE_BREAK);
      sendJson(response, 200, completion(`One\n\n${PAGE_BREAK}\n\nTwo`, { prompt_tokens: 300, completion_tokens: 9 }));
    });
    const system = await createSystem(openaiKind, 'gpt', options(server.url, { comparePages: 'all' }), context());
    const page = [{ text: 'A', x: 72, y: 72, size: 12 }];
    const outcome = await system.call(makeCall(await drawPdf([page, page, page]), 'application/pdf', compareRequest));
    await system.close();
    if (!outcome.ok) throw outcome.error;
    const result = outcome.result as CompareResult;
    expect(result.pages.map((p) => p.content)).toEqual(['One', 'Two', '']);
    expect(result).toMatchObject({ failedPages: 1, failedPageList: [3] });
    expect(server.requests).toHaveLength(1);
  });
});

describe('openai errors', () => {
  const pdf = () => drawPdf([[{ text: 'A', x: 72, y: 72, size: 12 }]]);

  it('retries a 429 after its Retry-After, then succeeds', async () => {
    server = await startHttpServer((_request, response, index) => {
      if (index === 0)
        return sendJson(
          response,
          429,
          { error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
          { 'retry-after': '0' },
        );
      sendJson(response, 200, completion('ok', { prompt_tokens: 1, completion_tokens: 1 }));
    });
    const system = await createSystem(openaiKind, 'gpt', options(server.url), context());
    const outcome = await system.call(makeCall(await pdf(), 'application/pdf', compareRequest));
    await system.close();
    expect(outcome.ok).toBe(true);
    expect(outcome.attempts).toBe(2);
  });

  it('does not retry an exhausted quota', async () => {
    server = await startHttpServer((_request, response) =>
      sendJson(response, 429, {
        error: {
          message: 'You exceeded your current quota',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      }),
    );
    const system = await createSystem(openaiKind, 'gpt', options(server.url), context());
    const outcome = await system.call(makeCall(await pdf(), 'application/pdf', compareRequest));
    await system.close();
    if (outcome.ok) throw new Error('expected a failure');
    expect(outcome.attempts).toBe(1);
    expect(outcome.error.retryable).toBe(false);
    expect(outcome.error.message).toMatch(/quota exhausted/);
  });

  it('reports an unknown model as non-retryable, naming the system and the model', async () => {
    server = await startHttpServer((_request, response) =>
      sendJson(response, 404, {
        error: {
          message: 'The model `vision-9` does not exist',
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      }),
    );
    const system = await createSystem(openaiKind, 'gpt', { ...options(server.url), model: 'vision-9' }, context());
    const outcome = await system.call(makeCall(await pdf(), 'application/pdf', compareRequest));
    await system.close();
    if (outcome.ok) throw new Error('expected a failure');
    expect(outcome.error.retryable).toBe(false);
    expect(outcome.error.message).toMatch(/^gpt: HTTP 404 .*model "vision-9" is not served/);
    expect(server.requests).toHaveLength(1);
  });

  it('maps a rejected key to SERVICE_AUTH and never repeats the key it echoes', async () => {
    server = await startHttpServer((request, response) =>
      sendJson(response, 401, {
        error: {
          message: `Incorrect API key provided: ${String(request.headers.authorization)}`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      }),
    );
    const system = await createSystem(openaiKind, 'gpt', options(server.url), context());
    const outcome = await system.call(makeCall(await pdf(), 'application/pdf', compareRequest));
    await system.close();
    if (outcome.ok) throw new Error('expected a failure');
    expect(outcome.error.code).toBe('SERVICE_AUTH');
    expect(outcome.error.message).toContain('[REDACTED]');
    expect(
      JSON.stringify({ m: outcome.error.message, b: outcome.error.bodyExcerpt, h: outcome.error.hint }),
    ).not.toContain(KEY);
    expect(outcome.error.hint).toContain('TEST_OPENAI_KEY');
  });

  it('fails a document whose PDF cannot be opened as INPUT_INVALID, without calling the server', async () => {
    server = await startHttpServer((_request, response) =>
      sendJson(response, 200, completion('x', { prompt_tokens: 1, completion_tokens: 1 })),
    );
    const system = await createSystem(openaiKind, 'gpt', options(server.url), context());
    const outcome = await system.call(makeCall(Buffer.from('%PDF-1.7 torn'), 'application/pdf', compareRequest));
    await system.close();
    expect(outcome.ok ? null : outcome.error).toMatchObject({ code: 'INPUT_INVALID', retryable: false });
    expect(server.requests).toHaveLength(0);
  });

  it('stops at creation when the key variable is unset, and rejects a key in headers', async () => {
    await expect(
      createSystem(openaiKind, 'gpt', options('http://127.0.0.1:9'), makeContext('gpt', {})),
    ).rejects.toThrow(/TEST_OPENAI_KEY, named by systems\.gpt\.apiKeyEnv, is not set/);
    expect(() =>
      parseKindOptions(
        openaiKind,
        { baseUrl: 'http://x/v1', model: 'm', headers: { Authorization: 'Bearer x' } },
        'systems.gpt',
      ),
    ).toThrow(/systems\.gpt\.headers\.Authorization: must not carry a key/);
    expect(() => parseKindOptions(openaiKind, { model: 'm' }, 'systems.gpt')).toThrow(
      /systems\.gpt\.baseUrl: is required/,
    );
  });
});

describe('openai as a pipeline extractor', () => {
  it('sends the markdown as text with no image, and reads the answer as extract does', async () => {
    server = await startHttpServer((request, response) => {
      const chat = body(request);
      const user = chat.messages.find((m) => m.role === 'user')!.content as { type: string; text?: string }[];
      expect(user.every((part) => part.type === 'text')).toBe(true);
      expect(user.map((part) => part.text).join('\n')).toContain(
        `Patient: Amanda Patel\n\n${PAGE_BREAK}\n\nTotal: 173.50`,
      );
      sendJson(
        response,
        200,
        completion(JSON.stringify({ patient: 'Amanda Patel', total: 173.5, service_date: null, codes: null }), {
          prompt_tokens: 300,
          completion_tokens: 20,
        }),
      );
    });
    const { createOpenAiTextExtractor } = await import('../../../src/systems/kinds/openai.js');
    const parsed = parseKindOptions(openaiKind, options(server.url), 'systems.gpt');
    const extractor = await createOpenAiTextExtractor(parsed, context());
    const outcome = await extractor.extract(makeCall(new Uint8Array(), 'application/pdf', extractRequest(SCHEMA)), [
      'Patient: Amanda Patel',
      'Total: 173.50',
    ]);
    await extractor.close();
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect((outcome.result as ExtractResult).data).toMatchObject({ patient: 'Amanda Patel', total: 173.5 });
    expect((outcome.result as ExtractResult).pagesProcessed).toBe(2);
    expect(outcome.usage).toMatchObject({ inputTokens: 300, outputTokens: 20 });
    expect(server.requests).toHaveLength(1);
  });
});
