/**
 * Latency summaries (docs/metrics/latency.md): p50, p90, p95, p99, mean, min, max per endpoint and mode, per document
 * and per page, with the percentile method named in every result. Lower is better. Failed calls and
 * timeouts are counted beside the figures, never dropped silently.
 */
import { DocbenchError } from '../errors.js';
import { ENDPOINTS, type Endpoint, type Mode } from '../types.js';
import { checkMetric } from './shared/check-metric.js';
import { computePercentile, PERCENTILE_METHOD } from './shared/percentile.js';

// Every latency result names its percentile method, so the library exports both next to the latency figures.
export { computePercentile, PERCENTILE_METHOD };

/** Options of {@link latencyStats}. */
export interface LatencyStatsOptions {
  /** Calls that failed (timeouts included), shown beside the figures. @default 0 */
  failed?: number;
}

/** {@link latencyStats}. All figures in the unit of the input (ms); `null` when there is no value. */
export interface LatencyStats {
  method: typeof PERCENTILE_METHOD;
  /** Values summarised (successful calls). */
  count: number;
  /** Failed calls, not in the figures. */
  failed: number;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  mean: number | null;
  min: number | null;
  max: number | null;
}

/** Summarises latencies (finite, ≥ 0). Empty input gives count 0 and `null` figures. */
export function latencyStats(values: readonly number[], options: LatencyStatsOptions = {}): LatencyStats {
  const failed = options.failed ?? 0;
  if (!Number.isInteger(failed) || failed < 0) {
    throw new DocbenchError('INPUT_INVALID', `latency: failed count ${String(failed)} is not an integer ≥ 0`, {
      hint: 'Pass the number of failed calls.',
    });
  }
  values.forEach((value, index) => {
    if (!Number.isFinite(value) || value < 0) {
      throw new DocbenchError(
        'INPUT_INVALID',
        `latency: value #${index} is ${String(value)}, expected a finite number ≥ 0`,
        {
          hint: 'Latencies come from the run records; a negative or missing one means a corrupt record.',
        },
      );
    }
  });
  if (values.length === 0) {
    return {
      method: PERCENTILE_METHOD,
      count: 0,
      failed,
      p50: null,
      p90: null,
      p95: null,
      p99: null,
      mean: null,
      min: null,
      max: null,
    };
  }
  const sorted = [...values].sort((a, b) => a - b);
  const figure = (name: string, value: number) => checkMetric(`latency ${name}`, value, { min: 0 });
  return {
    method: PERCENTILE_METHOD,
    count: sorted.length,
    failed,
    p50: figure('p50', computePercentile(sorted, 0.5)),
    p90: figure('p90', computePercentile(sorted, 0.9)),
    p95: figure('p95', computePercentile(sorted, 0.95)),
    p99: figure('p99', computePercentile(sorted, 0.99)),
    mean: figure('mean', sorted.reduce((s, v) => s + v, 0) / sorted.length),
    min: figure('min', sorted[0]!),
    max: figure('max', sorted[sorted.length - 1]!),
  };
}

/** One call, as the run recorded it. */
export interface LatencySample {
  endpoint: Endpoint;
  /** /extract's mode; `null` for the other endpoints. */
  mode: Mode | null;
  /** Client wall time of the call, ms. */
  latencyMs: number;
  /** `failed` includes `timeout`; neither enters the figures, both are counted. */
  outcome: 'ok' | 'failed' | 'timeout';
  /** Pages of the document, when known: the per-page figures divide by it. */
  pages?: number | null;
  /** The service's own `processing_time_ms`, when it reported one. */
  processingTimeMs?: number | null;
}

/** Latency of one endpoint and mode. */
export interface LatencyGroup {
  endpoint: Endpoint;
  mode: Mode | null;
  /** Client wall time per call (document), successful calls. */
  perDocument: LatencyStats;
  /** Client wall time divided by the document's page count, successful calls with a page count. */
  perPage: LatencyStats;
  /** Successful calls left out of `perPage` for want of a page count. */
  withoutPageCount: number;
  /** The service's own processing time, where reported. */
  serviceProcessing: LatencyStats;
  /** Failed calls, timeouts included. */
  failed: number;
  timedOut: number;
}

/**
 * Groups calls by endpoint and mode and summarises each group. Failed calls are excluded from the figures
 * (a 503 after 20 ms would flatter the median, and a timeout's duration is the configured limit, not a
 * latency) and counted in `failed` / `timedOut`.
 */
export function summarizeLatency(samples: readonly LatencySample[]): LatencyGroup[] {
  const groups = new Map<string, LatencySample[]>();
  for (const sample of samples) {
    const key = `${sample.endpoint}|${sample.mode ?? '-'}`;
    const list = groups.get(key);
    if (list) list.push(sample);
    else groups.set(key, [sample]);
  }
  const result: LatencyGroup[] = [];
  for (const list of groups.values()) {
    const first = list[0]!;
    const ok = list.filter((s) => s.outcome === 'ok');
    const failed = list.length - ok.length;
    const withPages = ok.filter((s) => typeof s.pages === 'number' && s.pages >= 1);
    const processing = ok
      .filter((s) => typeof s.processingTimeMs === 'number')
      .map((s) => s.processingTimeMs as number);
    result.push({
      endpoint: first.endpoint,
      mode: first.mode,
      perDocument: latencyStats(
        ok.map((s) => s.latencyMs),
        { failed },
      ),
      perPage: latencyStats(
        withPages.map((s) => s.latencyMs / (s.pages as number)),
        { failed },
      ),
      withoutPageCount: ok.length - withPages.length,
      serviceProcessing: latencyStats(processing, { failed }),
      failed,
      timedOut: list.filter((s) => s.outcome === 'timeout').length,
    });
  }
  const order = (g: LatencyGroup) =>
    ENDPOINTS.indexOf(g.endpoint) * 10 + (g.mode === null ? 0 : g.mode === 'fast' ? 1 : 2);
  return result.sort((a, b) => order(a) - order(b));
}
