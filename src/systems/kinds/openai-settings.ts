/**
 * What reading a `openai` system's config needs: its options, checked, and the operations and secrets
 * they imply. The registry imports this module alone; the implementation (openai.ts, with the provider
 * helpers) loads with the first system of this kind (CONTRIBUTING.md, Habits).
 */
import { createHash } from 'node:crypto';
import type { Operation, SystemKindSettings } from '../types.js';
import { PAGE_BREAK } from '../../types.js';

export interface OpenAiOptions {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`; `/chat/completions` is appended to its path. */
  baseUrl: string;
  model: string;
  /** The environment variable holding the key; absent for local servers that need none. */
  apiKeyEnv: string | undefined;
  /** Header carrying the key: `Authorization` sends `Bearer <key>`, any other (Azure's `api-key`) the bare key. @default Authorization */
  apiKeyHeader: string;
  /** Resolution PDF pages are rendered at. @default 150 */
  dpi: number;
  /** Send at most this many pages. @default 20 */
  maxPages: number;
  /** @default 0 */
  temperature: number;
  /** `max_tokens` per call; the server's default when absent. */
  maxTokens: number | undefined;
  /**
   * An answer cut short at the token limit (`finish_reason: "length"`) is asked once more with this larger
   * `max_tokens`; absent: it fails the call as SERVICE_OUTPUT_TRUNCATED, never retried (docs/providers.md).
   */
  retryMaxTokens: number | undefined;
  /** compare: one call per page, or every page in one call. @default per-page */
  comparePages: 'per-page' | 'all';
  /** Ask for token logprobs (confidence). Some servers reject it. @default false */
  logprobs: boolean;
  /** extract: start with `json_schema` (falls back on rejection) or go straight to `json_object`. @default json_schema */
  structuredOutput: 'json_schema' | 'json_object';
  extractPrompt: string;
  comparePrompt: string;
  /** Extra request headers (never a secret: those come from apiKeyEnv). */
  headers: Record<string, string>;
}

/** The documented default prompts (docs/systems.md quotes them). */
export const OPENAI_DEFAULT_PROMPTS = {
  extract:
    'You extract data from documents. Read the attached page images and answer with one JSON object that follows the given JSON Schema. ' +
    'Copy values exactly as printed (dates, codes and amounts as they appear, without units or currency symbols in numbers). ' +
    'Use null for a field the document does not contain; never guess.',
  compare:
    'Transcribe the attached document page into GitHub-flavoured Markdown. Reproduce all text exactly as printed, in reading order. ' +
    'Use # headings for titles and section headings, pipe tables for tabular data, - for list items and a blank line between paragraphs. ' +
    'Do not describe images, add commentary, or wrap the answer in code fences.',
  allPages: `The images are consecutive pages of one document: transcribe them in order and put a line containing only ${PAGE_BREAK} between pages.`,
} as const;

export const openaiSettings: SystemKindSettings<OpenAiOptions> = {
  kind: 'openai',
  description:
    'OpenAI-compatible chat completions with images (vision LLMs): extract by structured output, compare by transcription',
  docs: 'docs/providers.md',
  optionNames: [
    'baseUrl',
    'model',
    'apiKeyEnv',
    'apiKeyHeader',
    'dpi',
    'maxPages',
    'temperature',
    'maxTokens',
    'retryMaxTokens',
    'comparePages',
    'logprobs',
    'structuredOutput',
    'extractPrompt',
    'comparePrompt',
    'headers',
  ],
  parseOptions(read) {
    const headers = read.optionalStringMap('headers') ?? {};
    for (const name of Object.keys(headers)) {
      if (/^(authorization|api-key|x-api-key)$/i.test(name))
        read.fail(`headers.${name}`, 'must not carry a key: name its environment variable in apiKeyEnv');
    }
    const maxTokens = read.optionalNumber('maxTokens', { min: 1, max: 1_000_000, integer: true });
    const retryMaxTokens = read.optionalNumber('retryMaxTokens', { min: 1, max: 1_000_000, integer: true });
    // Asking again with no more room would only be cut short again.
    if (retryMaxTokens !== undefined && maxTokens !== undefined && retryMaxTokens <= maxTokens)
      read.fail('retryMaxTokens', `must be larger than maxTokens (${maxTokens}): it is the limit of the second try`);
    return {
      baseUrl: read.optionalUrl('baseUrl') ?? read.fail('baseUrl', 'is required (e.g. https://api.openai.com/v1)'),
      model: read.string('model', 'gpt-4.1-mini'),
      apiKeyEnv: read.optionalEnvName('apiKeyEnv'),
      apiKeyHeader: read.optionalString('apiKeyHeader') ?? 'Authorization',
      dpi: read.optionalNumber('dpi', { min: 50, max: 400, integer: true }) ?? 150,
      maxPages: read.optionalNumber('maxPages', { min: 1, max: 500, integer: true }) ?? 20,
      temperature: read.optionalNumber('temperature', { min: 0, max: 2 }) ?? 0,
      maxTokens,
      retryMaxTokens,
      comparePages: read.optionalEnum('comparePages', ['per-page', 'all'] as const) ?? 'per-page',
      logprobs: read.optionalBoolean('logprobs') ?? false,
      structuredOutput: read.optionalEnum('structuredOutput', ['json_schema', 'json_object'] as const) ?? 'json_schema',
      extractPrompt: read.optionalString('extractPrompt') ?? OPENAI_DEFAULT_PROMPTS.extract,
      comparePrompt: read.optionalString('comparePrompt') ?? OPENAI_DEFAULT_PROMPTS.compare,
      headers,
    };
  },
  operations: (): readonly Operation[] => ['extract', 'compare'],
  secretEnvNames: (options) => (options.apiKeyEnv ? [options.apiKeyEnv] : []),
  // A letter page at the default 150 dpi is 765 image tokens in OpenAI's tile accounting (4 tiles of 170 +
  // 85), plus the prompt and schema; a transcribed page is a few hundred tokens out (docs/systems.md).
  tokensPerPage: { inputTokensPerPage: 1000, outputTokensPerPage: 400 },
  identity: async (options) => openaiIdentity(options),
};

/** What the cache files an openai system's answers under: the prompts and rendering are part of what they depend on. */
export function openaiIdentity(options: OpenAiOptions): string {
  const prompts = createHash('sha256')
    .update(options.extractPrompt + options.comparePrompt)
    .digest('hex')
    .slice(0, 12);
  return `openai|${options.baseUrl}|${options.model}|t=${options.temperature}|dpi=${options.dpi}|max=${options.maxPages}|${options.comparePages}|${options.structuredOutput}|${prompts}`;
}
