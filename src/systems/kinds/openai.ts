/**
 * `openai`: any OpenAI-compatible chat-completions server (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp
 * server, LM Studio, OpenRouter, Gemini's and Mistral's compatible endpoints) as a vision model.
 *
 * Pages are rendered to PNG (PDF pages at `dpi` through @docbench/pdf) and sent as `data:` URLs in `image_url`
 * content parts. extract asks for structured output with the dataset's schema made strict
 * (providers/strict-schema.ts); a server that rejects `json_schema` is asked again with `json_object` and
 * the schema in the prompt, and the raw record says so. compare asks for a transcription in markdown, one
 * call per page or all pages in one call. Confidence (extract only) is the geometric mean of the answer's
 * token probabilities when the server returns logprobs, else none. Tokens come from `usage`.
 */
import {
  ServiceError,
  isServiceError,
  ShapeReader,
  readResponseField,
  type ExtractResult,
  type MarkdownPage,
  type Redactor,
} from '../../service/index.js';
import { PAGE_BREAK, type Endpoint, type JsonSchema } from '../../types.js';
import type { Operation, System, SystemCall, SystemContext, SystemKind, Usage } from '../types.js';
import { readSecret } from '../providers/secret.js';
import { createProviderHttp, readCommonError, type CallProduct, type ProviderCall } from '../providers/http.js';
import { openDocumentPages, pageNumbers, requireBytes } from '../providers/pages.js';
import { captureRaw } from '../providers/raw.js';
import { compareResult } from '../providers/results.js';
import { fromStrictAnswer, toStrictSchema } from '../providers/strict-schema.js';
import { openaiIdentity, openaiSettings, OPENAI_DEFAULT_PROMPTS, type OpenAiOptions } from './openai-settings.js';

/** What a system's calls share: the HTTP client with its retry policy, the chat call and the structured-output state. */
function openChat(options: OpenAiOptions, context: SystemContext) {
  const apiKey = options.apiKeyEnv ? readSecret(context.env, context.name, 'apiKeyEnv', options.apiKeyEnv) : null;
  const url = new URL(options.baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  const http = createProviderHttp(context, {
    readError: (_status, body) => {
      const info = readCommonError(body);
      // OpenAI answers 429 both for a rate limit and for an exhausted balance; only the first passes.
      return info.code === 'insufficient_quota' ? { ...info, kind: 'quota' } : info;
    },
    authHint: `check the key in ${options.apiKeyEnv ?? '(no apiKeyEnv set)'} for ${options.baseUrl}`,
    notFoundMessage: `model "${options.model}" is not served at ${options.baseUrl} (or the base URL is wrong)`,
  });
  // Once a server has rejected json_schema, later calls go straight to json_object.
  const state = { structuredOutput: options.structuredOutput, fallbackReason: null as string | null };
  const headers = {
    'content-type': 'application/json',
    ...options.headers,
    ...(apiKey
      ? { [options.apiKeyHeader]: /^authorization$/i.test(options.apiKeyHeader) ? `Bearer ${apiKey}` : apiKey }
      : {}),
  };
  const send = (call: ProviderCall, body: Record<string, unknown>, maxTokens: number | undefined) =>
    sendChat(call, url.href, headers, {
      model: options.model,
      temperature: options.temperature,
      ...(maxTokens ? { max_tokens: maxTokens } : {}),
      ...(options.logprobs ? { logprobs: true } : {}),
      ...body,
    });
  // An answer cut at the token limit is a configuration fault, not the model's reading: it fails the call
  // unless the config gives a larger limit for one more try (docs/providers.md, openai).
  const chat: Chat = async (call, body) => {
    const answer = await send(call, body, options.maxTokens);
    if (answer.finishReason !== 'length') return answer;
    if (options.retryMaxTokens === undefined) throw truncatedAnswer(call.endpoint, options.maxTokens, false);
    const again = await send(call, body, options.retryMaxTokens);
    if (again.finishReason === 'length') throw truncatedAnswer(call.endpoint, options.retryMaxTokens, true);
    return again;
  };
  return { http, chat, state };
}

export const openaiKind: SystemKind<OpenAiOptions> = {
  ...openaiSettings,
  async create(options, context) {
    const { http, chat, state } = openChat(options, context);
    return {
      name: context.name,
      kind: 'openai',
      identity: openaiIdentity(options),
      operations: new Set<Operation>(['extract', 'compare']),
      call: (call) =>
        http.run(call.request.operation, call.signal, async (provider) => {
          const images = await renderImages(call, options, context.name);
          provider.usage = { pages: images.length };
          if (call.request.operation === 'extract')
            return extract(
              provider,
              chat,
              { parts: imageParts(images), pages: images.length },
              call.request.schema,
              call.request.customContext,
              options,
              state,
              context.redact,
            );
          if (call.request.operation === 'compare') return compare(provider, chat, images, options, context.redact);
          throw new ServiceError(
            'INPUT_INVALID',
            `${context.name}: openai does not support ${call.request.operation}`,
            { endpoint: call.request.operation, retryable: false },
          );
        }),
      close: () => http.close(),
    } satisfies System;
  },
};

/**
 * A pipeline's `openai` extractor (docs/systems.md, "pipeline"): the reader's markdown as text in the prompt,
 * pages separated by the page-break marker, no image; the same prompts, structured output and confidence.
 */
export async function createOpenAiTextExtractor(options: OpenAiOptions, context: SystemContext) {
  const { http, chat, state } = openChat(options, context);
  return {
    extract: (call: SystemCall, pages: readonly string[]) =>
      http.run(call.request.operation, call.signal, async (provider) => {
        if (call.request.operation !== 'extract') throw new Error('a pipeline extracts only for extract calls');
        const text = pages.join(`\n\n${PAGE_BREAK}\n\n`);
        return extract(
          provider,
          chat,
          { parts: [{ type: 'text', text: `The document, as markdown:\n\n${text}` }], pages: pages.length },
          call.request.schema,
          call.request.customContext,
          options,
          state,
          context.redact,
        );
      }),
    close: () => http.close(),
  };
}

interface PageImage {
  dataUrl: string;
  width: number;
  height: number;
}

async function renderImages(call: SystemCall, options: OpenAiOptions, system: string): Promise<PageImage[]> {
  const document = requireBytes(call.input, call.request.operation, system);
  const pages = await openDocumentPages(document, options.dpi, call.request.operation);
  try {
    const images: PageImage[] = [];
    for (const page of pageNumbers(pages.count, options.maxPages)) {
      const png = await pages.png(page);
      const size = await pages.size(page);
      images.push({
        dataUrl: `data:image/png;base64,${png.data.toString('base64')}`,
        width: size.width,
        height: size.height,
      });
    }
    return images;
  } finally {
    await pages.close();
  }
}

/** One chat completion's answer: the message text, token usage and logprobs when present. */
interface ChatAnswer {
  content: string;
  finishReason: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  logprobs: number[] | null;
  body: unknown;
}

type Chat = (call: ProviderCall, body: Record<string, unknown>) => Promise<ChatAnswer>;

async function sendChat(
  call: ProviderCall,
  url: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<ChatAnswer> {
  const response = await call.request({ method: 'POST', url, headers, body: JSON.stringify(body) });
  const reader = call.reader(response);
  const root = reader.object(response.body, '(body)');
  const choice = reader.object(reader.array(root.choices, 'choices')[0], 'choices[0]');
  const message = reader.object(choice.message, 'choices[0].message');
  const usage = reader.optionalObject(root.usage, 'usage');
  // The dated snapshot behind an alias and the serving configuration (docs/providers.md, openai).
  call.report('model', root.model);
  call.report('system_fingerprint', root.system_fingerprint);
  const answer: ChatAnswer = {
    content: reader.optionalString(message.content, 'choices[0].message.content') ?? '',
    finishReason: reader.optionalString(choice.finish_reason, 'choices[0].finish_reason'),
    inputTokens: usage ? reader.optionalNumber(usage.prompt_tokens, 'usage.prompt_tokens') : null,
    outputTokens: usage ? reader.optionalNumber(usage.completion_tokens, 'usage.completion_tokens') : null,
    logprobs: readLogprobs(choice.logprobs, reader),
    body: response.body,
  };
  addUsage(call, answer);
  if (typeof message.refusal === 'string' && message.refusal !== '') {
    throw new ServiceError('SERVICE_RESPONSE_INVALID', `the model refused: ${message.refusal.slice(0, 200)}`, {
      endpoint: call.endpoint,
      status: response.status,
      retryable: false,
    });
  }
  return answer;
}

/** SERVICE_OUTPUT_TRUNCATED: the answer stopped at `max_tokens`; its message says which option to raise. */
function truncatedAnswer(endpoint: Endpoint, maxTokens: number | undefined, retried: boolean): ServiceError {
  const limit = maxTokens === undefined ? "the server's default max_tokens" : `max_tokens ${maxTokens}`;
  return new ServiceError(
    'SERVICE_OUTPUT_TRUNCATED',
    `the answer was cut short at ${limit} (finish_reason "length")${retried ? ' on the second try too' : ''}: raise ${retried ? 'retryMaxTokens' : 'maxTokens'}`,
    {
      endpoint,
      status: 200,
      retryable: false,
      hint: `raise the system's ${retried ? 'retryMaxTokens' : 'maxTokens'} (docs/providers.md, openai), then rerun with --resume`,
    },
  );
}

/** `choices[0].logprobs.content[].logprob` (chat completions' logprobs object); null when absent. */
function readLogprobs(value: unknown, reader: ShapeReader): number[] | null {
  const logprobs = reader.optionalObject(value, 'choices[0].logprobs');
  const content = logprobs ? reader.optionalArray(logprobs.content, 'choices[0].logprobs.content') : undefined;
  if (!content || content.length === 0) return null;
  return content.map((token, i) =>
    reader.number(
      reader.object(token, `choices[0].logprobs.content[${i}]`).logprob,
      `choices[0].logprobs.content[${i}].logprob`,
    ),
  );
}

function addUsage(call: ProviderCall, answer: ChatAnswer): void {
  const usage: Usage = { ...call.usage };
  if (answer.inputTokens !== null) usage.inputTokens = (usage.inputTokens ?? 0) + answer.inputTokens;
  if (answer.outputTokens !== null) usage.outputTokens = (usage.outputTokens ?? 0) + answer.outputTokens;
  call.usage = usage;
}

/** One part of a chat message's content: text, or a page as an image. */
type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

function imageParts(images: readonly PageImage[]): ContentPart[] {
  return images.map((image) => ({ type: 'image_url', image_url: { url: image.dataUrl } }));
}

async function extract(
  call: ProviderCall,
  chat: Chat,
  document: { parts: readonly ContentPart[]; pages: number },
  schema: JsonSchema,
  customContext: string | null,
  options: OpenAiOptions,
  state: { structuredOutput: 'json_schema' | 'json_object'; fallbackReason: string | null },
  redact: Redactor,
): Promise<CallProduct> {
  const strict = toStrictSchema(schema);
  const context = customContext ? `\n\nContext: ${customContext}` : '';
  const ask = (format: 'json_schema' | 'json_object') =>
    chat(call, {
      messages: [
        {
          role: 'system',
          content:
            format === 'json_schema'
              ? options.extractPrompt
              : `${options.extractPrompt}\n\nJSON Schema:\n${JSON.stringify(schema)}`,
        },
        {
          role: 'user',
          content: [{ type: 'text', text: `Extract the data of this document.${context}` }, ...document.parts],
        },
      ],
      response_format:
        format === 'json_schema'
          ? { type: 'json_schema', json_schema: { name: 'extraction', schema: strict.schema, strict: true } }
          : { type: 'json_object' },
    });
  let answer: ChatAnswer | undefined;
  if (state.structuredOutput === 'json_schema') {
    try {
      answer = await ask('json_schema');
    } catch (error) {
      if (!rejectsJsonSchema(error)) throw error;
      state.structuredOutput = 'json_object';
      state.fallbackReason = error.message;
    }
  }
  const format = answer ? 'json_schema' : 'json_object';
  answer ??= await ask('json_object');
  const reader = new ShapeReader('extract', () => answer.content.slice(0, 300), {});
  const { data, form } = readResponseField(answer.content, reader);
  const result: ExtractResult = {
    data: format === 'json_schema' ? fromStrictAnswer(data, schema, strict.wrapped) : data,
    responseForm: form,
    method: null,
    pagesProcessed: document.pages,
    ...logprobConfidence(answer.logprobs),
  };
  return {
    result,
    usage: call.usage,
    raw: captureRaw(
      {
        structuredOutput: format,
        ...(format === 'json_object' && state.fallbackReason ? { fallbackReason: state.fallbackReason } : {}),
        responses: [answer.body],
      },
      redact,
    ),
  };
}

/** A 400/422 whose message is about the response format: the server does not do json_schema. */
function rejectsJsonSchema(error: unknown): error is ServiceError {
  return (
    isServiceError(error) &&
    (error.status === 400 || error.status === 422) &&
    /response_format|json_schema|structured|schema/i.test(`${error.message} ${error.bodyExcerpt ?? ''}`)
  );
}

/**
 * Confidence from logprobs: the geometric mean of the answer's token probabilities, exp(mean logprob) × 100.
 * It measures how sure the model was of the whole answer as written (field names and punctuation included,
 * which are near-certain under a schema), so it runs high; it is a ranking signal, not a calibrated one.
 */
function logprobConfidence(logprobs: number[] | null): Pick<ExtractResult, 'confidence' | 'confidenceScale'> {
  if (logprobs === null) return { confidence: null, confidenceScale: null };
  const mean = logprobs.reduce((sum, lp) => sum + lp, 0) / logprobs.length;
  return { confidence: Math.round(Math.exp(mean) * 100 * 100) / 100, confidenceScale: '0-100' };
}

async function compare(
  call: ProviderCall,
  chat: Chat,
  images: readonly PageImage[],
  options: OpenAiOptions,
  redact: Redactor,
): Promise<CallProduct> {
  const ask = (pages: readonly PageImage[], prompt: string) =>
    chat(call, {
      messages: [
        { role: 'system', content: prompt },
        { role: 'user', content: [{ type: 'text', text: 'Transcribe.' }, ...imageParts(pages)] },
      ],
    });
  const answers: ChatAnswer[] = [];
  let contents: string[];
  if (options.comparePages === 'all') {
    const answer = await ask(images, `${options.comparePrompt}\n\n${OPENAI_DEFAULT_PROMPTS.allPages}`);
    answers.push(answer);
    contents = unfence(answer.content).split(PAGE_BREAK);
  } else {
    contents = [];
    for (const image of images) {
      const answer = await ask([image], options.comparePrompt);
      answers.push(answer);
      contents.push(unfence(answer.content));
    }
  }
  const pages: MarkdownPage[] = images.map((image, i) => ({
    content: (contents[i] ?? '').trim(),
    width: image.width,
    height: image.height,
  }));
  // All-pages mode: a page the model did not transcribe (fewer breaks than pages) counts as failed.
  const failedPageList = images.flatMap((_, i) => (contents[i] === undefined ? [i + 1] : []));
  const result = compareResult(pages, failedPageList);
  return { result, usage: call.usage, raw: captureRaw({ responses: answers.map((a) => a.body) }, redact) };
}

/** Models often fence markdown despite the prompt: a single fence around the whole answer is removed. */
function unfence(text: string): string {
  const match = /^\s*```(?:markdown|md)?\s*\n([\s\S]*?)\n```\s*$/i.exec(text);
  return match ? match[1]! : text;
}
