/** Valid results.jsonl records of /compare calls, as the results reader checks them (system `s`), and valid
 * results of /compare and /extract calls. */
import type { CallRecord } from '../../src/run-dir/index.js';
import type { PlannedCall } from '../../src/run/plan.js';

/** A /compare answer of one page. */
export function comparePages(markdown: string): Record<string, unknown> {
  const pages = [{ content: markdown, width: null, height: null }];
  return { success: true, pages, dashboardUrl: null, comparisonId: null, failedPages: 0, failedPageList: [] };
}

/** An /extract answer of `data`, as an object. */
export function extractResult(data: unknown): Record<string, unknown> {
  return { data, responseForm: 'object', method: null, pagesProcessed: null, confidence: null, confidenceScale: null };
}

/** One /compare call of document `id`, ok with `{ result }` or failed with `{ error }`. */
export function compareRecord(
  id: string,
  outcome: { status: 'ok'; result: Record<string, unknown> } | { status: 'failed'; error: Record<string, unknown> },
): CallRecord {
  return {
    v: 2,
    key: `s|${id}|compare|-|0`,
    system: 's',
    document_id: id,
    endpoint: 'compare',
    mode: null,
    repeat: 0,
    attempts: 1,
    last_attempt_ms: 5,
    latency_ms: 5,
    started_at: '2026-01-01T00:00:00Z',
    from_cache: false,
    usage: { pages: 1 },
    cost_usd: 0.002,
    ...outcome,
  } as unknown as CallRecord;
}

/** The fields every record of a planned call has, its latency 100 + `i` ms (add status and result or error). */
export function plannedCallBase(call: PlannedCall, i: number) {
  return {
    v: 2,
    system: call.system,
    key: call.key,
    document_id: call.document.id,
    repeat: 0,
    attempts: 1,
    latency_ms: 100 + i,
    last_attempt_ms: 100 + i,
    started_at: new Date(0).toISOString(),
    from_cache: false,
    endpoint: call.endpoint,
    mode: call.mode,
  };
}
