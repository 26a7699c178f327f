/**
 * `tesseract`: the classic OCR incumbent. The native `tesseract` CLI when it runs (Debian's tesseract-ocr),
 * tesseract.js (bundled English model, no download) otherwise. Each page — a PDF page rendered at `dpi`, or
 * an image page — is read as TSV (level 5 = word, with its box in pixels and confidence 0–100); words are
 * grouped into tesseract's own lines, which become the markdown (lines, simple tables) and the regions.
 */
import { spawn } from 'node:child_process';
import type { Endpoint } from '../../types.js';
import { UsageError } from '../../errors.js';
import {
  ServiceError,
  isServiceError,
  cancelled,
  unexpected,
  excerpt,
  type CompareResult,
  type ProcessResult,
  type SplitResult,
} from '../../service/index.js';
import type { System, SystemCall, SystemContext, SystemKind, SystemOutcome } from '../types.js';
import { openDocumentPages, pageNumbers, requireBytes, type PagePng, type PageSize } from '../providers/pages.js';
import { linesToBlocks, meanConfidence, polygonToInches, renderMarkdown, type TextLine } from '../providers/layout.js';
import { captureRaw } from '../providers/raw.js';
import { pagesResult, type ReadPage } from '../providers/results.js';
import { tesseractSettings, OPERATIONS, type TesseractOptions } from './tesseract-settings.js';

export const tesseractKind: SystemKind<TesseractOptions> = {
  ...tesseractSettings,
  async create(options, context) {
    const engine = await startEngine(options, context);
    return {
      name: context.name,
      kind: 'tesseract',
      identity: `tesseract|${engine.version}|lang=${options.language}|psm=${options.psm}|dpi=${options.dpi}|maxPages=${options.maxPages ?? 'all'}`,
      operations: new Set(OPERATIONS),
      call: (call) => readDocument(call, options, engine, context),
      close: () => engine.close(),
    } satisfies System;
  },
};

/** One OCR engine: TSV for a PNG. */
interface OcrEngine {
  /** e.g. `native tesseract 5.3.0` or `tesseract.js 7.0.0`. */
  version: string;
  tsv(png: Buffer, dpi: number, signal: AbortSignal, timeoutMs: number, endpoint: Endpoint): Promise<string>;
  close(): Promise<void>;
}

async function startEngine(options: TesseractOptions, context: SystemContext): Promise<OcrEngine> {
  if (options.engine !== 'wasm') {
    const version = await probeNative(options.binary, context);
    if (version !== null) return nativeEngine(options, context, version);
    if (options.engine === 'native') {
      throw new UsageError(
        `systems.${context.name}.engine is native, and \`${options.binary} --version\` did not run`,
        {
          subject: `systems.${context.name}.engine`,
          code: 'CONFIG_INVALID',
          hint: 'install tesseract (apt-get install tesseract-ocr), set binary to its path, or set engine: wasm',
        },
      );
    }
    context.logger.debug(`${context.name}: ${options.binary} is not on PATH; using tesseract.js`);
  }
  return wasmEngine(options);
}

/** The CLI's environment: only what it needs, never another system's key. */
function cliEnv(context: SystemContext): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: context.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', OMP_THREAD_LIMIT: '1' };
  // The runner runs pages of several documents at once: one thread each keeps tesseract from oversubscribing.
  if (context.env.TESSDATA_PREFIX) env.TESSDATA_PREFIX = context.env.TESSDATA_PREFIX;
  return env;
}

async function probeNative(binary: string, context: SystemContext): Promise<string | null> {
  try {
    const { stdout, stderr } = await runProcess(binary, ['--version'], {
      env: cliEnv(context),
      timeoutMs: 10_000,
      endpoint: 'process',
    });
    // Tesseract 4 printed its version on stderr, 5 on stdout.
    const line = `${stdout}\n${stderr}`.split('\n').find((l) => /^tesseract\s/i.test(l.trim()));
    return line ? `native ${line.trim()}` : null;
  } catch {
    return null;
  }
}

function nativeEngine(options: TesseractOptions, context: SystemContext, version: string): OcrEngine {
  return {
    version,
    async tsv(png, dpi, signal, timeoutMs, endpoint) {
      const args = [
        'stdin',
        'stdout',
        '-l',
        options.language,
        '--psm',
        String(options.psm),
        '--dpi',
        String(dpi),
        'tsv',
      ];
      const { stdout } = await runProcess(options.binary, args, {
        env: cliEnv(context),
        input: png,
        signal,
        timeoutMs,
        endpoint,
      });
      return stdout;
    },
    close: async () => {},
  };
}

async function wasmEngine(options: TesseractOptions): Promise<OcrEngine> {
  const [{ createWorker, OEM }, { resolveEnglishLangPath }, { createRequire }] = await Promise.all([
    import('tesseract.js'),
    import('@docbench/local-engine'),
    import('node:module'),
  ]);
  const { version } = createRequire(import.meta.url)('tesseract.js/package.json') as { version: string };
  // Created on first use: a system that is configured but never called costs nothing.
  let worker: ReturnType<typeof createWorker> | null = null;
  const ready = () =>
    (worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: resolveEnglishLangPath(),
      gzip: true,
      cacheMethod: 'none',
      logger: () => {},
    }).then(async (created) => {
      await created.setParameters({
        tessedit_pageseg_mode: String(options.psm),
        user_defined_dpi: String(options.dpi),
        debug_file: '/dev/null',
      } as Parameters<typeof created.setParameters>[0]);
      return created;
    }));
  return {
    version: `tesseract.js ${version}`,
    async tsv(png, dpi) {
      const ocr = await ready();
      await ocr.setParameters({ user_defined_dpi: String(dpi) } as Parameters<typeof ocr.setParameters>[0]);
      const result = await ocr.recognize(png, {}, { tsv: true, text: false, blocks: false });
      return result.data.tsv ?? '';
    },
    async close() {
      const current = worker;
      worker = null;
      if (current) await (await current.catch(() => null))?.terminate();
    },
  };
}

/** One word of tesseract's TSV, pixels. */
interface TsvWord {
  key: string;
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  confidence: number;
}

/**
 * Tesseract's TSV: a header, then `level page block par line word left top width height conf text`.
 * Level 5 rows are words; rows of one (block, par, line) are one line, in reading order.
 */
export function readTesseractTsv(tsv: string): { words: TsvWord[] }[] {
  const lines = new Map<string, TsvWord[]>();
  for (const row of tsv.split('\n').slice(1)) {
    const cols = row.split('\t');
    if (cols.length < 12 || cols[0] !== '5') continue;
    const text = cols.slice(11).join('\t').trim();
    if (text === '') continue;
    const key = `${cols[2]}.${cols[3]}.${cols[4]}`;
    const word: TsvWord = {
      key,
      text,
      left: Number(cols[6]),
      top: Number(cols[7]),
      width: Number(cols[8]),
      height: Number(cols[9]),
      confidence: Number(cols[10]),
    };
    if (![word.left, word.top, word.width, word.height, word.confidence].every(Number.isFinite)) continue;
    const line = lines.get(key) ?? [];
    line.push(word);
    lines.set(key, line);
  }
  return [...lines.values()].map((words) => ({ words }));
}

interface PageReading {
  page: number;
  size: PageSize;
  png: Pick<PagePng, 'width' | 'height'>;
  tsv: string;
}

async function readDocument(
  call: SystemCall,
  options: TesseractOptions,
  engine: OcrEngine,
  context: SystemContext,
): Promise<SystemOutcome> {
  const started = performance.now();
  const endpoint: Endpoint = call.request.operation;
  const timing = () => ({
    attempts: 1,
    latencyMs: performance.now() - started,
    lastAttemptMs: performance.now() - started,
  });
  const readings: PageReading[] = [];
  try {
    const document = requireBytes(call.input, endpoint, context.name);
    const pages = await openDocumentPages(document, options.dpi, endpoint);
    try {
      for (const page of pageNumbers(pages.count, options.maxPages)) {
        const png = await pages.png(page);
        const size = await pages.size(page);
        // The page's resolution as rendered (PDF) or as stored (image): what tesseract sizes text by.
        const dpi = Math.round((png.width * 72) / size.width);
        const remaining = context.common.timeoutMs - (performance.now() - started);
        if (remaining <= 0) throw timeout(endpoint, context.name, context.common.timeoutMs);
        readings.push({ page, size, png, tsv: await engine.tsv(png.data, dpi, call.signal, remaining, endpoint) });
      }
    } finally {
      await pages.close();
    }
    const raw = captureRaw(
      { engine: engine.version, pages: readings.map(({ page, tsv }) => ({ page, tsv })) },
      context.redact,
    );
    return { ok: true, result: toResult(call, readings), usage: { pages: readings.length }, raw, ...timing() };
  } catch (caught) {
    const error = call.signal.aborted
      ? cancelled(endpoint, caught)
      : isServiceError(caught)
        ? caught
        : unexpected(caught, endpoint, context.redact);
    return { ok: false, error, ...timing() };
  }
}

function toResult(call: SystemCall, readings: readonly PageReading[]): CompareResult | SplitResult | ProcessResult {
  if (call.request.operation === 'extract')
    throw new ServiceError('INPUT_INVALID', 'tesseract does not extract fields', {
      endpoint: 'extract',
      retryable: false,
    });
  return pagesResult(
    call.request.operation,
    readings.map((reading): ReadPage => {
      const lines = readTesseractTsv(reading.tsv);
      const pixelsPerInch = (reading.png.width * 72) / reading.size.width;
      return {
        page: reading.page,
        size: reading.size,
        markdown: () => renderMarkdown(linesToBlocks(lines.map(toTextLine))),
        lines: lines.map(({ words }) => ({
          text: words.map((w) => w.text).join(' '),
          box: polygonToInches(
            words.flatMap((w) => [w.left, w.top, w.left + w.width, w.top + w.height]),
            pixelsPerInch,
          ),
          confidence: meanConfidence(
            words.map((w) => w.confidence),
            100,
          ),
        })),
      };
    }),
  );
}

function toTextLine({ words }: { words: TsvWord[] }): TextLine {
  const heights = words.map((w) => w.height).sort((a, b) => a - b);
  return {
    words: words.map((w) => ({ text: w.text, x0: w.left, x1: w.left + w.width })),
    top: Math.min(...words.map((w) => w.top)),
    bottom: Math.max(...words.map((w) => w.top + w.height)),
    height: heights[Math.floor(heights.length / 2)] ?? 0,
  };
}

function timeout(endpoint: Endpoint, system: string, timeoutMs: number): ServiceError {
  return new ServiceError('SERVICE_TIMEOUT', `${system}: OCR not done within ${timeoutMs} ms`, {
    endpoint,
    retryable: false,
    hint: 'raise the system’s timeoutMs, lower dpi or set maxPages',
  });
}

/** Runs a child process with stdin bytes, a time-out and cancellation; rejects on a non-zero exit. */
function runProcess(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; input?: Buffer; signal?: AbortSignal; timeoutMs: number; endpoint: Endpoint },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'], signal: options.signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut)
        return reject(
          new ServiceError('SERVICE_TIMEOUT', `${command} did not finish within ${options.timeoutMs} ms`, {
            endpoint: options.endpoint,
            retryable: false,
          }),
        );
      if (code !== 0) {
        return reject(
          new ServiceError('SERVICE_RESPONSE_INVALID', `${command} exited with ${code}: ${excerpt(stderr, (t) => t)}`, {
            endpoint: options.endpoint,
            retryable: false,
            hint: 'check the tesseract installation and the language data (tesseract --list-langs)',
          }),
        );
      }
      resolve({ stdout, stderr });
    });
    // EPIPE when the process dies before reading its input is reported by `close` with its exit code.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input);
  });
}
