/**
 * `local`: docbench's own engine (the reference service of src/local), started in this process on a
 * loopback port and called through the interface client, so its answers are read exactly as a real
 * service's are. The engine (pdfjs, OCR) is loaded only when a local system is created.
 */
import path from 'node:path';
import { DEFAULT_AUTH } from '../../service/index.js';
import { ENDPOINTS, OCR_CHOICES, type OcrChoice } from '../../types.js';
import { DOCBENCH_VERSION } from '../../version.js';
import { findDocbenchCommit } from '../../git-commit.js';
import type { SystemKind } from '../types.js';
import { clientSystem, createSystemClient } from './interface.js';

/** The local engine's one option: which OCR reads scanned pages. */
export interface LocalOptions {
  /** @default auto (PP-OCR when its optional packages are installed, else tesseract.js) */
  ocr: OcrChoice;
}

const MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

/** Where the embedded engine keeps its /compare store (the comparison views) under the cache directory. */
export function localEngineDataDir(cacheDir: string): string {
  return path.join(cacheDir, 'local-service');
}

export const localKind: SystemKind<LocalOptions> = {
  kind: 'local',
  description: "docbench's embedded reference engine (pdfjs text layer + PP-OCR or tesseract OCR), in this process",
  docs: 'docs/systems.md',
  optionNames: ['ocr'],
  parseOptions: (read) => ({ ocr: read.optionalEnum('ocr', OCR_CHOICES) ?? 'auto' }),
  operations: () => ENDPOINTS,
  secretEnvNames: () => [],
  async create(options, context) {
    const [{ startLocalService }, commit] = await Promise.all([import('../../local/index.js'), findDocbenchCommit()]);
    const service = await startLocalService({ ocr: options.ocr, locale: context.dataset.locale, dataDir: localEngineDataDir(context.cacheDir), logger: context.logger });
    context.logger.info(`${context.name}: the local reference service at ${service.baseUrl} (docbench's own engine, not the real service; OCR ${service.ocrVersion}).`);
    const client = createSystemClient(service.baseUrl, null, { auth: { ...DEFAULT_AUTH }, maxResponseBytes: MAX_RESPONSE_BYTES }, context);
    // The engine answers as its code, its OCR and the dataset's locale make it: from a checkout, the commit is
    // part of its identity, and the OCR and locale always are, so cached answers are never reused across them.
    const identity = `local:${DOCBENCH_VERSION}${commit ? `+${commit.slice(0, 12)}` : ''};ocr=${service.ocrVersion};locale=${context.dataset.locale}`;
    return clientSystem(context.name, 'local', identity, client, async () => {
      await client.close();
      await service.close();
    });
  },
};
