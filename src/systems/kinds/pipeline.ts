/**
 * `pipeline`: a reader's markdown given to an extractor instead of the document (docs/systems.md, "pipeline").
 * compare answers with the reader's markdown; extract reads the document with the reader, then runs the
 * extractor on that markdown. A call's latency is the reader's plus the extractor's, its cost the reader's
 * plus the extractor's (the pipeline's `price` prices the extractor). A reader that fails fails the call, its
 * error named. The reader's answers are shared (systems/readers.ts): never asked twice for one document, and
 * the reader's cost a call includes is marked shared (`sharedCostUsd`) when another call recorded it first.
 */
import { ServiceError, type CompareResult, type ExtractResult } from '../../service/index.js';
import { computeCost } from '../cost.js';
import type { SharedReader } from '../readers.js';
import type { Operation, SystemCall, SystemContext, SystemKind, SystemOutcome } from '../types.js';
import { createCommandCaller } from './command.js';
import { localVersion } from './local.js';
import { openaiIdentity } from './openai-settings.js';
import { pipelineSettings, type ExtractorSpec, type PipelineOptions } from './pipeline-settings.js';

/** Runs the extractor on a document's markdown pages. */
interface Extractor {
  identity: string;
  extract(call: SystemCall, pages: readonly string[]): Promise<SystemOutcome>;
  close(): Promise<void>;
}

export const pipelineKind: SystemKind<PipelineOptions> = {
  ...pipelineSettings,
  async create(options, context) {
    if (!context.readers) throw new Error(`system ${context.name}: pipelines are created by createSystems`);
    const reader = await context.readers.reader(options.reader);
    const extractor = await createExtractor(options.extract, context);
    // The reader's answers this pipeline has already counted the cost of: one document's compare and extract
    // calls share one answer, paid once (on whichever call came first).
    const paid = new Set<string>();
    const readerCost = (answer: string, outcome: SystemOutcome & { ok: true }): ReaderCost | undefined => {
      if (paid.has(answer)) return undefined;
      paid.add(answer);
      const usd = reader.costOf(outcome);
      if (usd === undefined) return undefined;
      return { usd, shared: reader.claim(answer) ? (outcome.sharedCostUsd ?? 0) : usd };
    };
    return {
      name: context.name,
      kind: 'pipeline',
      identity: `pipeline:${JSON.stringify({ read: reader.identity, extract: extractor.identity })}`,
      operations: new Set<Operation>(['extract', 'compare']),
      answers: (document, operation) => operation !== 'split' && operation !== 'process' && reader.answers(document),
      async call(call) {
        const consumer = `${context.name}:${call.request.operation}:${call.request.mode ?? ''}`;
        const { outcome: read, answer } = await reader.read(call, consumer);
        if (!read.ok) return readerFailed(read, reader, call);
        if (call.request.operation !== 'extract') {
          // The pipeline's price is its extractor's, which a compare call does not use: nothing to price it by
          // but the reader's cost (none when the reader is free or already paid).
          const cost = readerCost(answer, read) ?? (context.common.price === null ? undefined : { usd: 0, shared: 0 });
          return cost === undefined ? read : withCost(read, cost.usd, cost.shared);
        }
        const pages = (read.result as CompareResult).pages.map((page) => page.content);
        const extracted = await extractor.extract(call, pages);
        // A failed call records no cost, so it takes none of the reader's: the pipeline's compare call counts it.
        return combine(read, extracted, extracted.ok ? readerCost(answer, read) : undefined, context);
      },
      close: async () => {
        await Promise.all([extractor.close(), reader.close()]);
      },
    };
  },
};

/** The reader's failure, as the pipeline's: its code and retry class, its message prefixed with its name. */
function readerFailed(read: SystemOutcome & { ok: false }, reader: SharedReader, call: SystemCall): SystemOutcome {
  const error = new ServiceError(read.error.code, `reader ${reader.name} failed: ${read.error.message}`, {
    endpoint: call.request.operation,
    retryable: false,
    ...(read.error.status !== undefined ? { status: read.error.status } : {}),
    ...(read.error.bodyExcerpt !== undefined ? { bodyExcerpt: read.error.bodyExcerpt } : {}),
    hint: `see the reader's own records (system ${reader.name}), or run it alone`,
  });
  return { ok: false, error, attempts: read.attempts, latencyMs: read.latencyMs, lastAttemptMs: read.lastAttemptMs };
}

/** The reader's cost a call includes, and the part of it another call of the run recorded first. */
interface ReaderCost {
  usd: number;
  shared: number;
}

/** `outcome` costing `usd`, `shared` of it recorded by another call too. */
function withCost(outcome: SystemOutcome & { ok: true }, usd: number, shared: number): SystemOutcome {
  const { sharedCostUsd: _, ...rest } = outcome;
  return shared > 0 ? { ...rest, costUsd: usd, sharedCostUsd: shared } : { ...rest, costUsd: usd };
}

/** Reader then extractor: times added, the extractor's attempts and usage, both costs (unknown if the extractor's is). */
function combine(
  read: SystemOutcome & { ok: true },
  extracted: SystemOutcome,
  readerCost: ReaderCost | undefined,
  context: SystemContext,
): SystemOutcome {
  const latencyMs = read.latencyMs + extracted.latencyMs;
  if (!extracted.ok) return { ...extracted, latencyMs };
  const pages = extracted.ok && 'pagesProcessed' in extracted.result ? extracted.result.pagesProcessed : null;
  const extractorCost = extracted.costUsd ?? computeCost(context.common.price, extracted.usage, pages ?? undefined);
  // Unpriced on both sides: the cost is unknown, not zero. Unpriced on one side only: that side adds nothing.
  if (extractorCost === undefined && readerCost === undefined) return { ...extracted, latencyMs };
  return withCost({ ...extracted, latencyMs }, (readerCost?.usd ?? 0) + (extractorCost ?? 0), readerCost?.shared ?? 0);
}

async function createExtractor(spec: ExtractorSpec, context: SystemContext): Promise<Extractor> {
  switch (spec.kind) {
    case 'command': {
      const caller = await createCommandCaller(spec.options, context);
      return { identity: caller.identity, extract: (call, pages) => caller.call(call, pages), close: caller.close };
    }
    case 'openai': {
      const { createOpenAiTextExtractor } = await import('./openai.js');
      const extractor = await createOpenAiTextExtractor(spec.options, context);
      return { identity: `text:${openaiIdentity(spec.options)}`, ...extractor };
    }
    case 'local': {
      const { extractFieldsFromText } = await import('@docbench/local-engine');
      return {
        identity: `text:${await localVersion()}`,
        async extract(call, pages) {
          const started = performance.now();
          if (call.request.operation !== 'extract') throw new Error('a pipeline extracts only for extract calls');
          const fast = call.request.mode === 'fast';
          const answer = await extractFieldsFromText(pages, call.request.schema, {
            fast,
            locale: context.dataset.locale,
          });
          const result: ExtractResult = {
            data: answer.data,
            responseForm: 'object',
            method: fast ? 'fast' : 'slow',
            pagesProcessed: pages.length,
            confidence: answer.confidence,
            confidenceScale: answer.confidence === null ? null : '0-100',
          };
          const ms = performance.now() - started;
          return { ok: true, result, attempts: 1, latencyMs: ms, lastAttemptMs: ms };
        },
        close: async () => {},
      };
    }
  }
}
