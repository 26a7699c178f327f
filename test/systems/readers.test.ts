/** A pipeline's reader (docs/systems.md, "pipeline"): its answers shared, its failures named. */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/service/index.js';
import { shareReader, withSharedCompare, type SharedReader } from '../../src/systems/readers.js';
import { pipelineKind } from '../../src/systems/kinds/pipeline.js';
import type { System, SystemCall, SystemContext, SystemOutcome } from '../../src/systems/index.js';
import { silentLogger } from '../../src/logger.js';
import { DEFAULT_RETRY_POLICY } from '../../src/service/index.js';

function countingSystem(outcome: (call: SystemCall) => SystemOutcome): System & { calls: number } {
  const system = {
    name: 'ocr',
    kind: 'command',
    identity: 'ocr@1',
    operations: new Set(['compare'] as const),
    calls: 0,
    async call(call: SystemCall) {
      system.calls++;
      return outcome(call);
    },
    close: async () => {},
  };
  return system as System & { calls: number };
}

function compareCall(id: string): SystemCall {
  return {
    document: { id, file: `/nowhere/${id}.pdf`, tags: {}, truth: {}, baseline: {} } as SystemCall['document'],
    input: { fileUrl: 'https://example.test/doc.pdf' },
    request: { operation: 'compare', mode: null, baselineMarkdown: null },
    signal: new AbortController().signal,
  };
}

/** A pipeline `pipe` reading with `reader`, extracting with the local engine; unpriced. */
function createPipeline(reader: SharedReader): Promise<System> {
  const context = {
    name: 'pipe',
    common: { concurrency: 1, ratePerSecond: null, timeoutMs: 1000, retry: DEFAULT_RETRY_POLICY, price: null },
    dataset: { locale: 'US', schema: {} },
    env: {},
    redact: (text: string) => text,
    cacheDir: '/tmp',
    baseDir: '/tmp',
    logger: silentLogger,
    readers: { reader: async () => reader },
  } as unknown as SystemContext;
  return pipelineKind.create({ read: 'ocr', reader: null, extract: { kind: 'local', options: {} } }, context);
}

const ok = (): SystemOutcome => ({
  ok: true,
  result: { success: true, pages: [], dashboardUrl: null, comparisonId: null, failedPages: 0, failedPageList: [] },
  attempts: 1,
  latencyMs: 10,
  lastAttemptMs: 10,
  costUsd: 0.5,
});

describe('shared readers', () => {
  it('makes one call per document for the reader itself and every pipeline reading with it; a repeat reads anew', async () => {
    const system = countingSystem(ok);
    const reader = shareReader(system, null, false);
    const own = withSharedCompare(system, reader);
    await own.call(compareCall('a'));
    await reader.read(compareCall('a'), 'p:compare:');
    await reader.read(compareCall('a'), 'p:extract:slow');
    await reader.read(compareCall('a'), 'q:extract:fast');
    expect(system.calls).toBe(1);
    // The pipeline's second ask for the same document is its next repetition: a new answer.
    await reader.read(compareCall('a'), 'p:compare:');
    expect(system.calls).toBe(2);
    await reader.read(compareCall('b'), 'p:compare:');
    expect(system.calls).toBe(3);
    expect(reader.costOf(ok())).toBe(0.5);
  });

  it("counts an answer's cost for the run in the first call to record it; the others include it as shared", async () => {
    const system = countingSystem(ok);
    const reader = shareReader(system, null, false);
    const own = withSharedCompare(system, reader);
    const pipeline = await createPipeline(reader);
    const costs = (outcome: SystemOutcome) => (outcome.ok ? [outcome.costUsd, outcome.sharedCostUsd] : outcome.error);
    // The pipeline records document a first, the reader's own call b.
    expect(costs(await pipeline.call(compareCall('a')))).toEqual([0.5, undefined]);
    expect(costs(await own.call(compareCall('a')))).toEqual([0.5, 0.5]);
    expect(costs(await own.call(compareCall('b')))).toEqual([0.5, undefined]);
    expect(costs(await pipeline.call(compareCall('b')))).toEqual([0.5, 0.5]);
    expect(system.calls).toBe(2);
    await pipeline.close();
  });

  it("fails a pipeline's call with the reader's error named", async () => {
    const failing = countingSystem(() => ({
      ok: false,
      error: new ServiceError('SERVICE_HTTP', 'HTTP 503 from the OCR', {
        endpoint: 'compare',
        retryable: true,
        status: 503,
      }),
      attempts: 2,
      latencyMs: 30,
      lastAttemptMs: 15,
    }));
    const pipeline = await createPipeline(shareReader(failing, null, false));
    const call = compareCall('a');
    const outcome = await pipeline.call({
      ...call,
      request: { operation: 'extract', mode: 'slow', schema: {}, customContext: null },
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('SERVICE_HTTP');
    expect(outcome.error.message).toBe('reader ocr failed: HTTP 503 from the OCR');
    expect(outcome.error.endpoint).toBe('extract');
    await pipeline.close();
  });
});
