/**
 * `local`: docbench's own engine (the reference service of @docbench/local-engine, packages/local-engine), started in this process on a
 * loopback port and called through the interface client, so its answers are read exactly as a real
 * service's are. The engine (pdfjs, OCR) is loaded only when a local system is created.
 */
import path from 'node:path';
import type { LocalService, LocalServiceOptions } from '@docbench/local-engine';
import { UsageError } from '../../errors.js';
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

/**
 * Starts the engine (`docbench serve`, a local system): an option it cannot honour here, such as PP-OCR whose
 * runtime does not load, is the user's usage error (exit code 2), not a failed run.
 */
export async function startLocalEngine(options: LocalServiceOptions): Promise<LocalService> {
  const { startLocalService, EngineOptionError } = await import('@docbench/local-engine');
  try {
    return await startLocalService(options);
  } catch (error) {
    if (!(error instanceof EngineOptionError)) throw error;
    throw new UsageError(error.message, { subject: error.subject, hint: error.hint, cause: error });
  }
}

/** docbench's version and, from a checkout, its commit: cached answers of an older engine are never reused. */
export async function localVersion(): Promise<string> {
  const commit = await findDocbenchCommit();
  return `local:${DOCBENCH_VERSION}${commit ? `+${commit.slice(0, 12)}` : ''}`;
}

/**
 * The engine answers as its code and its OCR make it, so the OCR with its version is part of its identity
 * too (answers of the other OCR are never reused), known without starting the engine.
 */
async function localIdentity(ocr: OcrChoice): Promise<string> {
  const [{ resolveOcrVersion }, base] = await Promise.all([import('@docbench/local-engine'), localVersion()]);
  return `${base};ocr=${resolveOcrVersion(ocr)}`;
}

export const localKind: SystemKind<LocalOptions> = {
  kind: 'local',
  description: "docbench's embedded reference engine (pdfjs text layer + PP-OCR or tesseract OCR), in this process",
  docs: 'docs/systems.md',
  optionNames: ['ocr'],
  parseOptions: (read) => ({ ocr: read.optionalEnum('ocr', OCR_CHOICES) ?? 'auto' }),
  operations: () => ENDPOINTS,
  secretEnvNames: () => [],
  identity: (options) => localIdentity(options.ocr),
  async create(options, context) {
    const [service, base] = await Promise.all([
      startLocalEngine({
        ocr: options.ocr,
        locale: context.dataset.locale,
        dataDir: localEngineDataDir(context.cacheDir),
        logger: context.logger,
      }),
      localVersion(),
    ]);
    context.logger.info(
      `${context.name}: the local reference service at ${service.baseUrl} (docbench's own engine, not the real service; OCR ${service.ocrVersion}).`,
    );
    const client = createSystemClient(
      service.baseUrl,
      null,
      { auth: { ...DEFAULT_AUTH }, maxResponseBytes: MAX_RESPONSE_BYTES },
      context,
    );
    // The OCR that really started: an onnxruntime binary that does not load here falls back to tesseract.js.
    const identity = `${base};ocr=${service.ocrVersion}`;
    return clientSystem(context.name, 'local', identity, client, async () => {
      await client.close();
      await service.close();
    });
  },
};
