/**
 * The local reference implementation of the service interface (docs/reference.md): `startLocalService()` serves
 * /v1/process, /extract, /split, /compare, /markdown and /evals on a loopback port, reading documents with
 * pdfjs-dist and tesseract.js. `docbench run` embeds it when no --base-url is given.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type DateLocale, type JsonObject, type JsonSchema } from './contract.js';
import { createEvalsStore } from './evals-store.js';
import { createFaultPicker } from './faults.js';
import { DEFAULT_DATA_PARENT, resolveServiceOptions, type LocalServiceOptions } from './options.js';

export type { LocalServiceOptions, FaultOptions, FaultMode } from './options.js';
export { FAULT_MODES, isFaultMode, DEFAULT_MAX_UPLOAD_BYTES } from './options.js';
export { SUPPORTED_FORMATS } from './document-format.js';
export { resolveEnglishLangPath } from './lang-data.js';
export { resolveOcrVersion } from './ocr-version.js';
export { createEvalsStore, type ComparisonRecord, type EvalsStore } from './evals-store.js';
export { renderEvalsPage, type ComparisonHref } from './evals-page.js';

/**
 * The engine's label matching run on markdown pages instead of a document (a pipeline's `local` extractor,
 * docs/systems.md): `data` as /extract's `response`, `confidence` 0–100 in slow mode (null in fast mode).
 * The extraction code loads with the first call.
 */
export async function extractFieldsFromText(
  pages: readonly string[],
  schema: JsonSchema,
  options: { fast: boolean; locale?: DateLocale | undefined },
): Promise<{ data: JsonObject; confidence: number | null }> {
  const { extractFromText } = await import('./text-extract.js');
  return extractFromText(pages, schema, options);
}

/** A running local service. */
export interface LocalService {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseUrl: string;
  /** Where /compare data is kept. */
  dataDir: string;
  /** The OCR that reads scanned pages, with its version (e.g. `pp-ocrv4+onnxruntime-node@1.17.0`). */
  ocrVersion: string;
  /** Stops accepting connections, ends open ones, and terminates the OCR workers. */
  close(): Promise<void>;
}

/**
 * Starts the service and resolves once it listens. The engine (pdf.js, tesseract.js, sharp, zxing) and the
 * request handler load here, on first use, so that importing docbench or this module costs none of them.
 */
export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const [{ createEngine }, { createRequestHandler }] = await Promise.all([
    import('./engine.js'),
    import('./server.js'),
  ]);
  const resolved = resolveServiceOptions(options);
  const logger = options.logger ?? silentLogger;
  let dataDir = resolved.dataDir;
  if (dataDir) await mkdir(dataDir, { recursive: true });
  else {
    await mkdir(DEFAULT_DATA_PARENT, { recursive: true });
    dataDir = await mkdtemp(`${DEFAULT_DATA_PARENT}/run-`);
  }
  const engine = await createEngine({
    ocr: resolved.ocr,
    ocrWorkers: resolved.ocrWorkers,
    cacheSize: resolved.cacheSize,
    logger,
  });
  let baseUrl = '';
  const server = createServer(
    { requestTimeout: 15 * 60_000, headersTimeout: 60_000 },
    createRequestHandler({
      options: resolved,
      engine,
      store: createEvalsStore(dataDir),
      logger,
      pickFault: createFaultPicker(resolved.faults),
      baseUrl: () => baseUrl,
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${address.port}`;
  logger.debug(`local service listening on ${baseUrl} (data in ${dataDir})`);
  let closing: Promise<void> | null = null;
  return {
    baseUrl,
    dataDir,
    ocrVersion: engine.ocrVersion,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await engine.close();
      })();
      return closing;
    },
  };
}

/** What the engine shares with a caller (docs/reference.md, "The package"). */
export { OCR_CHOICES, EngineOptionError, type OcrChoice, type DateLocale, type Logger } from './contract.js';
