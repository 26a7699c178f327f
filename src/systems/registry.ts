/**
 * Every kind of system, one row each (docs/systems.md). Adding a kind is one file under ./kinds and one line
 * here; the config reader, the runner and the reports know only the `SystemKind` interface.
 *
 * Every config read imports this module, so the provider kinds (which bring the HTTP, page-rendering and
 * layout helpers) come in two parts: their settings (`kinds/<kind>-settings.ts`) load here, their
 * implementation with the first system of that kind created (CONTRIBUTING.md, Habits).
 */
import type { SystemKind, SystemKindSettings } from './types.js';
import { interfaceKind } from './kinds/interface.js';
import { localKind } from './kinds/local.js';
import { storedKind } from './kinds/stored.js';
import { commandKind } from './kinds/command.js';
import { openaiSettings } from './kinds/openai-settings.js';
import { mistralOcrSettings } from './kinds/mistral-ocr-settings.js';
import { azureDiSettings } from './kinds/azure-di-settings.js';
import { textractSettings } from './kinds/textract-settings.js';
import { googleDocAiSettings } from './kinds/google-docai-settings.js';
import { tesseractSettings } from './kinds/tesseract-settings.js';
import { pipelineSettings } from './kinds/pipeline-settings.js';

/**
 * Erases a row's options type. Sound because the options a row's `parseOptions` returns only ever go back
 * into the same row's `operations`, `secretEnvNames` and `create` (see resolveSystems).
 */
function row<Options>(kind: SystemKind<Options>): SystemKind<unknown> {
  return kind as unknown as SystemKind<unknown>;
}

/** A kind whose `create` imports its implementation (`load`) on the first call. */
function lazyRow<Options>(
  settings: SystemKindSettings<Options>,
  load: () => Promise<SystemKind<Options>>,
): SystemKind<unknown> {
  return row({ ...settings, create: async (options, context) => (await load()).create(options, context) });
}

export const SYSTEM_KINDS: ReadonlyMap<string, SystemKind<unknown>> = new Map(
  [
    row(interfaceKind),
    row(localKind),
    row(storedKind),
    row(commandKind),
    lazyRow(openaiSettings, async () => (await import('./kinds/openai.js')).openaiKind),
    lazyRow(mistralOcrSettings, async () => (await import('./kinds/mistral-ocr.js')).mistralOcrKind),
    lazyRow(azureDiSettings, async () => (await import('./kinds/azure-di.js')).azureDiKind),
    lazyRow(textractSettings, async () => (await import('./kinds/textract.js')).textractKind),
    lazyRow(googleDocAiSettings, async () => (await import('./kinds/google-docai.js')).googleDocAiKind),
    lazyRow(tesseractSettings, async () => (await import('./kinds/tesseract.js')).tesseractKind),
    lazyRow(pipelineSettings, async () => (await import('./kinds/pipeline.js')).pipelineKind),
  ].map((kind) => [kind.kind, kind]),
);

export function findSystemKind(kind: string): SystemKind<unknown> | undefined {
  return SYSTEM_KINDS.get(kind);
}
