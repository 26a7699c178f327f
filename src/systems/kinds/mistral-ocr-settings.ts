/**
 * What reading a `mistral-ocr` system's config needs: its options, checked, and the operations and secrets
 * they imply. The registry imports this module alone; the implementation (mistral-ocr.ts, with the provider
 * helpers) loads with the first system of this kind (CONTRIBUTING.md, Habits).
 */
import type { Operation, SystemKindSettings } from '../types.js';

export interface MistralOcrOptions {
  /** @default https://api.mistral.ai/v1 */
  baseUrl: string;
  /** @default mistral-ocr-latest */
  model: string;
  /** @default MISTRAL_API_KEY */
  apiKeyEnv: string;
  /** Ask for at most this many pages (the `pages` parameter, 0-based indices). @default all */
  maxPages: number | undefined;
}

export const OPERATIONS: readonly Operation[] = ['extract', 'compare', 'process'];

export const mistralOcrSettings: SystemKindSettings<MistralOcrOptions> = {
  kind: 'mistral-ocr',
  description: 'Mistral OCR: markdown per page; extract by document annotation with the schema',
  docs: 'docs/providers.md',
  optionNames: ['baseUrl', 'model', 'apiKeyEnv', 'maxPages'],
  parseOptions(read) {
    return {
      baseUrl: read.optionalUrl('baseUrl') ?? 'https://api.mistral.ai/v1',
      model: read.optionalString('model') ?? 'mistral-ocr-latest',
      apiKeyEnv: read.optionalEnvName('apiKeyEnv') ?? 'MISTRAL_API_KEY',
      maxPages: read.optionalNumber('maxPages', { min: 1, max: 1000, integer: true }),
    };
  },
  operations: () => OPERATIONS,
  secretEnvNames: (options) => [options.apiKeyEnv],
  identity: async (options) => mistralOcrIdentity(options),
};

/** What the cache files a mistral-ocr system's answers under. */
export function mistralOcrIdentity(options: MistralOcrOptions): string {
  return `mistral-ocr|${options.baseUrl}|${options.model}|max=${options.maxPages ?? 'all'}`;
}
