/**
 * Every kind of system, one row each (docs/systems.md). Adding a kind is one file under ./kinds and one line
 * here; the config reader, the runner and the reports know only the `SystemKind` interface.
 */
import type { SystemKind } from './types.js';
import { interfaceKind } from './kinds/interface.js';
import { localKind } from './kinds/local.js';
import { storedKind } from './kinds/stored.js';
import { commandKind } from './kinds/command.js';
import { openaiKind } from './kinds/openai.js';
import { mistralOcrKind } from './kinds/mistral-ocr.js';
import { azureDiKind } from './kinds/azure-di.js';
import { textractKind } from './kinds/textract.js';
import { googleDocAiKind } from './kinds/google-docai.js';
import { tesseractKind } from './kinds/tesseract.js';

/**
 * Erases a row's options type. Sound because the options a row's `parseOptions` returns only ever go back
 * into the same row's `operations`, `secretEnvNames` and `create` (see resolveSystems).
 */
function row<Options>(kind: SystemKind<Options>): SystemKind<unknown> {
  return kind as unknown as SystemKind<unknown>;
}

export const SYSTEM_KINDS: ReadonlyMap<string, SystemKind<unknown>> = new Map([
    row(interfaceKind),
    row(localKind),
    row(storedKind),
    row(commandKind),
    row(openaiKind),
    row(mistralOcrKind),
    row(azureDiKind),
    row(textractKind),
    row(googleDocAiKind),
    row(tesseractKind),
  ].map((kind) => [kind.kind, kind]));

export function findSystemKind(kind: string): SystemKind<unknown> | undefined {
  return SYSTEM_KINDS.get(kind);
}
