/** Options of the local reference service, and their defaults. */
import os from 'node:os';
import path from 'node:path';
import { isLoopbackHost } from './file-url-guard.js';
import type { DateLocale, Logger, OcrChoice } from './contract.js';

/** The faults the service can inject (docs/reference.md, Limits, errors, faults): each mimics a real failure a client must survive. */
export const FAULT_MODES = ['429', '500', '503-html', 'truncated-json', 'drop'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export function isFaultMode(value: string): value is FaultMode {
  return (FAULT_MODES as readonly string[]).includes(value);
}

/** Fault injection, off unless given. */
export interface FaultOptions {
  /** Share of API requests that fail, 0–1. */
  rate: number;
  /** Seed of the pseudo-random sequence: the same seed and request order give the same faults. */
  seed: number;
  /** Extra delay before every API request, ms. */
  latencyMs?: number;
  /** Modes to choose among (uniformly). @default every mode */
  modes?: FaultMode[];
}

export interface LocalServiceOptions {
  /** Interface to bind. @default '127.0.0.1' (loopback only) */
  host?: string;
  /** Port; 0 takes any free port. @default 0 */
  port?: number;
  /** When set, every endpoint requires this key in the header the interface lists for it. */
  apiKey?: string;
  /** Where /compare baselines and markdown are kept for /evals. @default a new dir under os.tmpdir()/docbench-serve */
  dataDir?: string;
  /** Largest accepted document, bytes (uploads and fileUrl downloads). @default 64 MiB */
  maxUploadBytes?: number;
  /** Which OCR reads scanned pages. @default 'auto' */
  ocr?: OcrChoice;
  /** tesseract.js workers, created on first OCR. @default 2 */
  ocrWorkers?: number;
  /**
   * The documents' locale (a dataset's `locale`): the day/month order of numeric dates that the document's own
   * dates leave ambiguous. @default undefined (guessed from each document's currency and language)
   */
  locale?: DateLocale;
  /** Delay added before every API request, ms, without faults. @default 0 */
  latencyMs?: number;
  faults?: FaultOptions;
  /** Timeout of a fileUrl download, ms. @default 30000 */
  fileUrlTimeoutMs?: number;
  /**
   * Bound beyond loopback, fileUrl may still reach loopback, private, link-local, unique-local and metadata
   * addresses (docs/reference.md). On loopback it always may. @default false
   */
  allowPrivateUrls?: boolean;
  /** Documents whose analysis is kept in memory. @default 8 */
  cacheSize?: number;
  logger?: Logger;
}

/** Options with every default applied. */
export interface ResolvedServiceOptions {
  host: string;
  port: number;
  apiKey: string | undefined;
  dataDir: string | undefined;
  maxUploadBytes: number;
  ocr: OcrChoice;
  ocrWorkers: number;
  locale: DateLocale | undefined;
  latencyMs: number;
  faults: (FaultOptions & { modes: FaultMode[] }) | undefined;
  fileUrlTimeoutMs: number;
  /** True when bound beyond loopback without allowPrivateUrls: fileUrl reaches public addresses only. */
  publicFileUrlsOnly: boolean;
  cacheSize: number;
}

export const DEFAULT_MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

/** The default data directory's parent. */
export const DEFAULT_DATA_PARENT = path.join(os.tmpdir(), 'docbench-serve');

export function resolveServiceOptions(options: LocalServiceOptions): ResolvedServiceOptions {
  const faults =
    options.faults && options.faults.rate > 0
      ? { ...options.faults, modes: options.faults.modes?.length ? options.faults.modes : [...FAULT_MODES] }
      : undefined;
  if (faults && (!(faults.rate >= 0) || faults.rate > 1))
    throw new RangeError(`faults.rate must be within 0–1, got ${faults.rate}`);
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    apiKey: options.apiKey || undefined,
    dataDir: options.dataDir,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    ocr: options.ocr ?? 'auto',
    ocrWorkers: Math.max(1, options.ocrWorkers ?? 2),
    locale: options.locale,
    latencyMs: Math.max(0, options.latencyMs ?? options.faults?.latencyMs ?? 0),
    faults,
    fileUrlTimeoutMs: options.fileUrlTimeoutMs ?? 30_000,
    publicFileUrlsOnly: !isLoopbackHost(options.host ?? '127.0.0.1') && options.allowPrivateUrls !== true,
    cacheSize: Math.max(1, options.cacheSize ?? 8),
  };
}
