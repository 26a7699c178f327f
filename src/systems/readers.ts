/**
 * The readers of pipelines (docs/systems.md, "pipeline"): a system whose markdown a pipeline's extractor is
 * given. One reader's answer for a document is made once and shared by every pipeline that reads with it and,
 * when the reader is itself a system of the run, by its own compare call: no second call, no second charge.
 * Each of them records the answer's cost as its own figures include it; all but the first to record it mark
 * it shared, so what the run spent counts it once.
 * `read: truth` is the dataset's truth markdown (the ceiling), which costs nothing and takes no time.
 */
import { readUtf8File, splitMarkdownPages } from '../dataset/index.js';
import type { CompareResult } from '../service/index.js';
import type { DatasetDocument } from '../types.js';
import { computeCost } from './cost.js';
import type { Price, System, SystemCall, SystemOutcome } from './types.js';

export interface SharedReader {
  /** The reader's system name, or `truth`. */
  name: string;
  identity: string;
  /** Whether it has markdown for this document at all. */
  answers(document: DatasetDocument): boolean;
  /**
   * The reader's compare answer for the call's document. `consumer` names who asks (a pipeline and its
   * operation, or the reader's own lane): each consumer's n-th ask for a document takes the reader's n-th answer
   * for it, so repeats of a run read anew while one repetition's calls share one answer.
   */
  read(call: SystemCall, consumer: string): Promise<ReaderAnswer>;
  /** What one answer cost: its own figure, else the reader's price of its usage; undefined without either. */
  costOf(outcome: SystemOutcome): number | undefined;
  /**
   * Whether a consumer recording an answer's cost is the first to: true once per answer. The others mark the
   * cost shared (`sharedCostUsd`): the first one's record counts it for the run.
   */
  claim(answer: string): boolean;
  /** Closes a reader made for pipelines alone (not a system of the run), once whoever calls first. */
  close(): Promise<void>;
}

/** One answer of a reader, and which of its answers it is (`<document>#<n>`): a pipeline pays for each once. */
export interface ReaderAnswer {
  outcome: SystemOutcome;
  answer: string;
}

/** The consumer name of a reader's own compare calls, in its own lane. */
export const OWN_CALLS = '';

/**
 * Shares `system`'s compare answers among its consumers.
 * @param owned the system was made for pipelines alone: closing the share closes it (a system of the run is
 *   closed with the run's systems).
 */
export function shareReader(system: System, price: Price | null, owned: boolean): SharedReader {
  const answers = new Map<string, Promise<SystemOutcome>>();
  const asked = new Map<string, number>();
  const claimed = new Set<string>();
  let closing: Promise<void> | null = null;
  return {
    close() {
      if (owned) closing ??= system.close();
      return closing ?? Promise.resolve();
    },
    name: system.name,
    identity: system.identity,
    answers: (document) => system.operations.has('compare') && (system.answers?.(document, 'compare') ?? true),
    async read(call, consumer) {
      const counter = `${consumer}\u0000${call.document.id}`;
      const n = asked.get(counter) ?? 0;
      asked.set(counter, n + 1);
      const key = `${call.document.id}#${n}`;
      let answer = answers.get(key);
      if (!answer) {
        answer = compareRequest(call).then((request) => system.call({ ...call, request }));
        answers.set(key, answer);
      }
      return { outcome: await answer, answer: key };
    },
    costOf: (outcome) =>
      (outcome.ok ? outcome.costUsd : undefined) ??
      computeCost(price, outcome.usage, outcome.ok ? compareResultPages(outcome) : undefined),
    claim(answer) {
      if (claimed.has(answer)) return false;
      claimed.add(answer);
      return true;
    },
  };
}

/** A system whose own compare calls go through its share, so pipelines reading with it reuse them. */
export function withSharedCompare(system: System, reader: SharedReader): System {
  return {
    name: system.name,
    kind: system.kind,
    identity: system.identity,
    operations: system.operations,
    ...(system.answers ? { answers: system.answers.bind(system) } : {}),
    ...(system.cacheable !== undefined ? { cacheable: system.cacheable } : {}),
    ...(system.prepare ? { prepare: system.prepare.bind(system) } : {}),
    async call(call) {
      if (call.request.operation !== 'compare') return system.call(call);
      const { outcome, answer } = await reader.read(call, OWN_CALLS);
      const cost = reader.costOf(outcome);
      // A pipeline recorded this answer first: its record counts the cost for the run.
      if (!outcome.ok || cost === undefined || reader.claim(answer)) return outcome;
      return { ...outcome, costUsd: cost, sharedCostUsd: cost };
    },
    close: () => system.close(),
  };
}

/** `read: truth`: each document's truth markdown, as a compare answer made in no time. */
export function truthReader(contentHash: string): SharedReader {
  return {
    name: 'truth',
    // The truth files are covered by the dataset's content hash: a changed truth is a changed reader.
    identity: `truth@${contentHash}`,
    answers: (document) => document.truth.markdown !== undefined,
    async read(call) {
      const file = call.document.truth.markdown!;
      const answer = call.document.id;
      const pages = splitMarkdownPages(await readUtf8File(file));
      const result: CompareResult = {
        success: true,
        pages: pages.map((content) => ({ content, width: null, height: null })),
        dashboardUrl: null,
        comparisonId: null,
        failedPages: 0,
        failedPageList: [],
      };
      return { outcome: { ok: true, result, attempts: 1, latencyMs: 0, lastAttemptMs: 0 }, answer };
    },
    // Free, and so it adds nothing: a pipeline reading the truth costs what its extractor costs.
    costOf: () => undefined,
    claim: () => true,
    close: async () => {},
  };
}

async function compareRequest(call: SystemCall): Promise<SystemCall['request']> {
  if (call.request.operation === 'compare') return call.request;
  const baseline = call.document.baseline.markdown;
  return { operation: 'compare', mode: null, baselineMarkdown: baseline ? await readUtf8File(baseline) : null };
}

function compareResultPages(outcome: SystemOutcome & { ok: true }): number | undefined {
  const pages = (outcome.result as { pages?: unknown }).pages;
  return Array.isArray(pages) && pages.length > 0 ? pages.length : undefined;
}
