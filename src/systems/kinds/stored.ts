/**
 * `stored`: outputs already on disk, read instead of called. The dataset's `baseline/` is the stored system
 * `incumbent`; any other stored system `<name>` reads `<dataset>/outputs/<name>/`. Per document and
 * operation: `<id>.json` (extract: the extraction object), `<id>.md` (compare: markdown, pages split by the
 * dataset's page-break marker), `<id>.regions.json` (split), and optionally `<id>.meta.json`
 * ({ confidence, latency_ms, cost_usd, usage }). With `--repeat N`, repetition r (from 2) of a compare call
 * reads `<id>.repeat<r>.md` where there is one (imported repeats), `<id>.md` otherwise. Never touches the network.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import {
  ServiceError,
  type CompareResult,
  type EndpointResult,
  type ExtractResult,
  type SplitResult,
} from '../../service/index.js';
import { readRegionPages, readUtf8File, splitMarkdownPages } from '../../dataset/index.js';
import type { Dataset, DatasetDocument, JsonObject } from '../../types.js';
import type { Operation, System, SystemKind, SystemOutcome, Usage } from '../types.js';

/** Stored outputs take no options of their own: the folder follows from the name. */
export type StoredOptions = Record<string, never>;

/** The stored system that reads the dataset's baseline/ folder. */
export const INCUMBENT = 'incumbent';

const SUFFIX: Partial<Record<Operation, string>> = { extract: '.json', compare: '.md', split: '.regions.json' };
const META_SUFFIX = '.meta.json';

/** The folder a stored system reads, relative to the dataset root. */
export function storedFolder(name: string): string {
  return name === INCUMBENT ? 'baseline' : `outputs/${name}`;
}

export const storedKind: SystemKind<StoredOptions> = {
  kind: 'stored',
  description: 'outputs already on disk: <dataset>/baseline/ for "incumbent", <dataset>/outputs/<name>/ otherwise',
  docs: 'docs/systems.md',
  // The folder follows from the name.
  optionNames: [],
  parseOptions: () => ({}),
  operations: () => ['extract', 'compare', 'split'],
  secretEnvNames: () => [],
  async create(_options, context) {
    const { relative, folder, files, fileFor } = openStoredFolder(context.name, context.dataset);
    const system: System = {
      name: context.name,
      kind: 'stored',
      identity: `stored:${relative}@${context.dataset.contentHash}`,
      operations: new Set(storedKind.operations({})),
      cacheable: false,
      answers: (document, operation) => fileFor(document.id, operation) !== null,
      async call({ document, request, repeat }) {
        const file = fileFor(document.id, request.operation, repeat ?? 0);
        const started = performance.now();
        try {
          if (file === null) throw new Error(`no ${relative}/${document.id}${SUFFIX[request.operation] ?? ''}`);
          const meta = files.has(`${document.id}${META_SUFFIX}`)
            ? await readMeta(path.join(folder, `${document.id}${META_SUFFIX}`))
            : null;
          const result = await readStored(request.operation, file, meta);
          const outcome: SystemOutcome = {
            ok: true,
            result,
            attempts: 0,
            latencyMs: meta?.latencyMs ?? 0,
            lastAttemptMs: meta?.latencyMs ?? 0,
          };
          if (meta?.usage) outcome.usage = meta.usage;
          if (meta?.costUsd !== undefined) outcome.costUsd = meta.costUsd;
          return outcome;
        } catch (error) {
          const message = context.redact((error as Error).message);
          return {
            ok: false,
            error: new ServiceError('SERVICE_RESPONSE_INVALID', `stored output unreadable: ${message}`, {
              endpoint: request.operation,
              retryable: false,
              hint: `fix the file under ${relative}/`,
            }),
            attempts: 0,
            latencyMs: performance.now() - started,
            lastAttemptMs: 0,
          };
        }
      },
      close: async () => undefined,
    };
    return system;
  },
};

/**
 * A stored system's folder, listed once: the plan asks for every document and operation, and the dataset's
 * content hash (part of the identity) already covers these files. @throws UsageError when it is missing.
 */
function openStoredFolder(name: string, dataset: Pick<Dataset, 'root'>) {
  const relative = storedFolder(name);
  const folder = path.join(dataset.root, relative);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(
      `systems.${name}: stored system "${name}" has no folder ${relative}/ in the dataset ${dataset.root}`,
      {
        code: 'CONFIG_INVALID',
        subject: `systems.${name}`,
        hint: `put its outputs in ${relative}/<id>.json, <id>.md or <id>.regions.json, or remove the system`,
      },
    );
  }
  const files = new Set(readdirSync(folder));
  const fileFor = (id: string, operation: Operation, repeat = 0): string | null => {
    const suffix = SUFFIX[operation];
    if (suffix === undefined) return null;
    // repetition r + 1 of a compare output, where the folder keeps one (docs/systems.md, "Stored repeats")
    const repeated = `${id}.repeat${repeat + 1}${suffix}`;
    if (repeat > 0 && operation === 'compare' && files.has(repeated)) return path.join(folder, repeated);
    return files.has(`${id}${suffix}`) ? path.join(folder, `${id}${suffix}`) : null;
  };
  return { relative, folder, files, fileFor };
}

/** Which documents and operations the stored system `name` has outputs for, without creating it (`docbench plan`). */
export function storedAnswers(
  name: string,
  dataset: Pick<Dataset, 'root'>,
): (document: DatasetDocument, operation: Operation) => boolean {
  const { fileFor } = openStoredFolder(name, dataset);
  return (document, operation) => fileFor(document.id, operation) !== null;
}

interface Meta {
  confidence: number | null;
  latencyMs: number | null;
  costUsd?: number;
  usage?: Usage;
}

async function readStored(operation: Operation, file: string, meta: Meta | null): Promise<EndpointResult> {
  switch (operation) {
    case 'extract': {
      const data = await readJson(file);
      if (!isObject(data)) throw new Error(`${path.basename(file)} must hold a JSON object (the extraction)`);
      const confidence = meta?.confidence ?? null;
      const result: ExtractResult = {
        data: data as JsonObject,
        responseForm: 'object',
        method: null,
        pagesProcessed: meta?.usage?.pages ?? null,
        // As the interface reader does: a value in [0, 1] is a fraction, on the 0–100 scale otherwise.
        confidence: confidence === null ? null : confidence <= 1 ? confidence * 100 : confidence,
        confidenceScale: confidence === null ? null : confidence <= 1 ? '0-1' : '0-100',
      };
      return result;
    }
    case 'compare': {
      const pages = splitMarkdownPages(await readUtf8File(file));
      const result: CompareResult = {
        success: true,
        pages: pages.map((content) => ({ content, width: null, height: null })),
        dashboardUrl: null,
        comparisonId: null,
        failedPages: 0,
        failedPageList: [],
      };
      return result;
    }
    case 'split': {
      const result: SplitResult = { pages: await readRegionPages(file) };
      return result;
    }
    case 'process':
      throw new Error('stored systems hold no /v1/process outputs');
  }
}

/** `<id>.meta.json`: every field optional, each checked. */
async function readMeta(file: string): Promise<Meta> {
  const raw = await readJson(file);
  const name = path.basename(file);
  if (!isObject(raw)) throw new Error(`${name} must hold a JSON object`);
  const number = (key: string, max = Infinity): number | null => {
    const value = raw[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max)
      throw new Error(`${name}: ${key} must be a number from 0${max === Infinity ? '' : ` to ${max}`}`);
    return value;
  };
  const meta: Meta = { confidence: number('confidence', 100), latencyMs: number('latency_ms') };
  const cost = number('cost_usd');
  if (cost !== null) meta.costUsd = cost;
  if (raw.usage !== undefined && raw.usage !== null) {
    if (!isObject(raw.usage)) throw new Error(`${name}: usage must be an object`);
    const usage: Usage = {};
    for (const [key, field] of [
      ['pages', 'pages'],
      ['input_tokens', 'inputTokens'],
      ['output_tokens', 'outputTokens'],
    ] as const) {
      const value = raw.usage[key];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        throw new Error(`${name}: usage.${key} must be a whole number ≥ 0`);
      usage[field] = value;
    }
    meta.usage = usage;
  }
  return meta;
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${path.basename(file)} is not valid JSON (${(error as Error).message})`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
