/**
 * What a run will cost before it starts (docs/systems.md, "Estimates"): per system the calls it will make,
 * the pages they carry and their price. Per-call and per-page prices are exact (the pages are counted from
 * the files); token prices need a tokens-per-page figure — the config's `estimate`, else the system's own
 * usage recorded by an earlier run of the dataset, else its kind's default — and are estimates. Pure: the
 * page counts, cached calls and recorded usage are read by the caller.
 */
import type { Price, TokensPerPage } from '../systems/index.js';
import type { PlannedCall } from './plan.js';

/** Tokens per page for kinds that give none: a page image plus a share of the prompt in, a page of text out. */
export const GENERIC_TOKENS_PER_PAGE: TokensPerPage = { inputTokensPerPage: 1000, outputTokensPerPage: 400 };

/** Where a tokens-per-page figure came from. */
export type TokensSource = 'config' | 'earlier run' | 'kind default' | 'generic default';

/** What the estimate needs to know of one system. */
export interface EstimateSystem {
  name: string;
  kind: string;
  price: Price | null;
  /** `maxPages`-like option: the pages one call sends at most. */
  maxPages?: number;
  /** The figure token prices are estimated with, and its source (ignored without token prices). */
  tokens: TokensPerPage & { source: TokensSource; detail?: string };
  /**
   * A pipeline's reader (docs/systems.md, "pipeline"): its price is paid once per document and repetition;
   * its calls are the pipeline's own unless the reader is a system of the run (`shared`). Null system: truth.
   */
  reader?: { name: string; system: EstimateSystem | null; shared: boolean };
}

/** One system's estimate. */
export interface SystemEstimate {
  system: string;
  kind: string;
  documents: number;
  /** Pages of those documents, counted from the files (uncounted documents as one page each), each once. */
  pages: number;
  /** Documents whose pages could not be counted (URLs, unreadable files). */
  uncounted: number;
  /** Calls still to make, per operation and mode (`extract:slow`, `compare`, …). */
  calls: Record<string, number>;
  repeats: number;
  /** Calls still to make, in all. */
  total: number;
  /** Of those, calls the response cache holds (free); null when it could not be checked. */
  cached: number | null;
  /** Calls the run directory already holds (--resume): not made again. */
  done: number;
  /** USD of the calls to pay for; null without a price. */
  costUsd: number | null;
  /**
   * Of `costUsd`, a pipeline's reads of answers another system's estimate counts too: its reader's own compare
   * calls, or an earlier pipeline's reads with the same reader (docs/systems.md, "Shared reads"). The run's
   * total counts them once.
   */
  sharedCostUsd: number;
  /** True when every price component is per call or per page. */
  exact: boolean;
  /** How the cost was estimated, for people: `exact (perPage × 60 pages)`, `1000 in / 400 out tokens per page (kind default)`. */
  basis: string;
}

export interface EstimateInput {
  systems: readonly EstimateSystem[];
  /** Calls still to make (the plan less what a resumed run holds). */
  calls: readonly PlannedCall[];
  /** Calls the run directory already holds, per system (--resume). */
  done?: ReadonlyMap<string, number>;
  /** Pages per document id; null or absent: not counted. */
  pages: ReadonlyMap<string, number | null>;
  /** Keys of calls the cache holds; systems absent from `cacheChecked` were not checked. */
  cachedKeys: ReadonlySet<string>;
  cacheChecked: ReadonlySet<string>;
  repeat: number;
}

/** The pages one call of `system` carries for `call`'s document. */
function callPages(system: EstimateSystem, pages: ReadonlyMap<string, number | null>, documentId: string): number {
  const counted = pages.get(documentId) ?? 1;
  return system.maxPages !== undefined ? Math.min(counted, system.maxPages) : counted;
}

/** USD one call carrying `pages` pages is expected to cost; 0 without a price. */
export function estimateCallCost(system: EstimateSystem, pages: number): number {
  const price = system.price;
  if (price === null) return 0;
  let cost = (price.perCall ?? 0) + (price.perPage ?? 0) * pages;
  if (price.perMillionInputTokens !== undefined)
    cost += (price.perMillionInputTokens * system.tokens.inputTokensPerPage * pages) / 1e6;
  if (price.perMillionOutputTokens !== undefined)
    cost += (price.perMillionOutputTokens * system.tokens.outputTokensPerPage * pages) / 1e6;
  return cost;
}

/** The estimator the runner's budgets use: a planned call's expected cost. */
export function createCallEstimator(
  systems: readonly EstimateSystem[],
  pages: ReadonlyMap<string, number | null>,
): (call: PlannedCall) => number {
  const byName = new Map(systems.map((system) => [system.name, system]));
  return (call) => {
    const system = byName.get(call.system);
    // A pipeline's price is its extractor's: its compare calls are its reader's answers.
    if (!system || (system.reader && call.endpoint !== 'extract')) return 0;
    return estimateCallCost(system, callPages(system, pages, call.document.id));
  };
}

function hasTokenPrice(price: Price | null): boolean {
  return price !== null && (price.perMillionInputTokens !== undefined || price.perMillionOutputTokens !== undefined);
}

function describeBasis(system: EstimateSystem, pages: number): string {
  const price = system.price;
  if (price === null) return 'no price';
  const parts: string[] = [];
  if (price.perCall !== undefined) parts.push('perCall × calls');
  if (price.perPage !== undefined) parts.push(`perPage × ${pages} pages sent`);
  if (!hasTokenPrice(price)) return `exact (${parts.join(' + ') || 'no component'})`;
  const { inputTokensPerPage, outputTokensPerPage, source, detail } = system.tokens;
  return `estimate: ${inputTokensPerPage} in / ${outputTokensPerPage} out tokens per page (${source}${detail ? `: ${detail}` : ''})${parts.length ? ` + ${parts.join(' + ')}` : ''}`;
}

/** Every system's estimate, in the order given. */
export function estimateRun(input: EstimateInput): SystemEstimate[] {
  // The readers' answers some estimate already counts (`<reader>|<document>#<repeat>`): first the run's own
  // compare calls the cache does not hold, then each pipeline's reads, in order.
  const paidAnswers = new Set(
    input.calls
      .filter((call) => call.endpoint === 'compare' && !input.cachedKeys.has(call.key))
      .map((call) => `${call.system}|${call.document.id}#${call.repeat}`),
  );
  return input.systems.map((system) => {
    const own = input.calls.filter((call) => call.system === system.name);
    const calls: Record<string, number> = {};
    const documents = new Set<string>();
    let paidPages = 0;
    let cached = 0;
    let cost = 0;
    let shared = 0;
    const reader = system.reader;
    const readAnswers = new Set<string>();
    for (const call of own) {
      const key = call.mode ? `${call.endpoint}:${call.mode}` : call.endpoint;
      calls[key] = (calls[key] ?? 0) + 1;
      documents.add(call.document.id);
      const carried = callPages(system, input.pages, call.document.id);
      if (input.cachedKeys.has(call.key)) {
        cached++;
        continue;
      }
      // A pipeline's price is its extractor's: its compare calls are its reader's answers.
      if (!reader || call.endpoint === 'extract') {
        paidPages += carried;
        cost += estimateCallCost(system, carried);
      }
      const answer = `${call.document.id}#${call.repeat}`;
      if (reader?.system && !readAnswers.has(answer)) {
        readAnswers.add(answer);
        const read = estimateCallCost(reader.system, callPages(reader.system, input.pages, call.document.id));
        cost += read;
        if (paidAnswers.has(`${reader.name}|${answer}`)) shared += read;
        paidAnswers.add(`${reader.name}|${answer}`);
      }
    }
    // The reader's calls a pipeline makes itself: one per document and repetition, unless the run makes them.
    const readerCalls = reader?.system && !reader.shared ? readAnswers.size : 0;
    if (readerCalls > 0) calls[`read:${reader!.name}`] = readerCalls;
    const priced = system.price !== null || (reader?.system?.price ?? null) !== null;
    const uncounted = [...documents].filter((id) => (input.pages.get(id) ?? null) === null).length;
    const pages = [...documents].reduce((sum, id) => sum + (input.pages.get(id) ?? 1), 0);
    return {
      system: system.name,
      kind: system.kind,
      documents: documents.size,
      pages,
      uncounted,
      calls,
      repeats: input.repeat,
      total: own.length + readerCalls,
      cached: input.cacheChecked.has(system.name) ? cached : null,
      done: input.done?.get(system.name) ?? 0,
      costUsd: priced ? cost : null,
      sharedCostUsd: shared,
      exact: !hasTokenPrice(system.price) && !hasTokenPrice(reader?.system?.price ?? null),
      basis: [
        ...(system.price !== null || !reader?.system?.price ? [describeBasis(system, paidPages)] : []),
        ...(reader?.system?.price ? [`reader ${reader.name}'s price once per document`] : []),
      ].join(' + '),
    };
  });
}

/** USD with enough digits for a cent's fraction: `$1.2345`. */
export function formatUsd(value: number): string {
  return `$${value.toFixed(value !== 0 && value < 0.01 ? 6 : 4)}`;
}

/** The one line per system `docbench plan` and `docbench run` print. */
export function formatEstimateLine(estimate: SystemEstimate): string {
  const calls =
    Object.entries(estimate.calls)
      .map(([key, count]) => `${key} ${count}`)
      .join(', ') || 'none';
  const cached = estimate.cached === null ? 'cache not checked' : `${estimate.cached} cached`;
  const done = estimate.done > 0 ? `, ${estimate.done} already done` : '';
  const uncounted = estimate.uncounted > 0 ? ` (${estimate.uncounted} documents not counted: 1 page each)` : '';
  const cost = estimate.costUsd === null ? 'no price' : `${formatUsd(estimate.costUsd)} ${estimate.basis}`;
  return `${estimate.system} (${estimate.kind}): ${estimate.total} calls [${calls}] × ${estimate.repeats} repeat${estimate.repeats === 1 ? '' : 's'}, ${cached}${done}; ${estimate.documents} documents, ${estimate.pages} pages${uncounted}: ${cost}`;
}

/** The priced systems' total, each shared read once, or null when no system has a price. */
export function totalEstimate(estimates: readonly SystemEstimate[]): number | null {
  const priced = estimates.filter((e) => e.costUsd !== null);
  return priced.length === 0 ? null : priced.reduce((sum, e) => sum + e.costUsd! - e.sharedCostUsd, 0);
}
