/**
 * The pure parts of estimates and budgets: page counts read from the files (against pdf.js, which renders
 * them, and sharp, which decodes them), per-call costs by price component, and the budget's guarantee — the
 * spend never passes the budget by more than the calls in flight when it was reached.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { countPdfPages, countTiffPages, scanPageCount } from '../../src/dataset/page-count.js';
import { openPdf } from '@docbench/pdf';
import { createBudgetLedger, sumRecordedCost } from '../../src/run/budget.js';
import { createProgress } from '../../src/run/progress.js';
import {
  createCallEstimator,
  estimateCallCost,
  estimateRun,
  totalEstimate,
  type EstimateSystem,
} from '../../src/run/estimate.js';
import type { PlannedCall } from '../../src/run/plan.js';
import type { CallRecord } from '../../src/run-dir/index.js';
import { ROOT } from '../helpers/cli.js';
import { drawPdf } from '../systems/providers/context.js';

const SAMPLE = path.join(ROOT, 'datasets', 'sample-claims', 'documents');

describe('page counts', () => {
  it('equal pdf.js for every PDF of the sample, and sharp for every TIFF', async () => {
    for (const file of await readdir(SAMPLE)) {
      const bytes = await readFile(path.join(SAMPLE, file));
      if (file.endsWith('.pdf')) {
        const pdf = await openPdf(new Uint8Array(bytes));
        expect(await countPdfPages(bytes), file).toBe(pdf.pageCount);
        await pdf.close();
      } else if (file.endsWith('.tif')) {
        expect(countTiffPages(bytes), file).toBe((await sharp(bytes).metadata()).pages ?? 1);
      }
    }
  });

  it('take the last definition of a page tree an incremental update rewrote', async () => {
    const pdf = await drawPdf([[], [], []]);
    const root = /(\d+) 0 obj\s*<<\s*\/Type \/Pages/.exec(pdf.toString('latin1'))?.[1];
    expect(root).toBeDefined();
    // The update keeps the first page only, under the same object number.
    const update = Buffer.from(`\n${root} 0 obj\n<< /Type /Pages /Count 1 /Kids [] >>\nendobj\n%%EOF\n`);
    expect(await countPdfPages(pdf)).toBe(3);
    expect(await countPdfPages(Buffer.concat([pdf, update]))).toBe(1);
  });

  it('open files with object streams, and files without a visible page tree, with pdf.js', async () => {
    const pdf = await drawPdf([[], []]);
    const withObjectStreams = Buffer.concat([pdf, Buffer.from('% /ObjStm\n')]);
    expect(scanPageCount('application/pdf', withObjectStreams)).toBeUndefined();
    expect(await countPdfPages(withObjectStreams)).toBe(2);
    // A catalog without a page tree: pdf.js decides (it falls back to one page).
    const noPageTree = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    expect(scanPageCount('application/pdf', noPageTree)).toBeUndefined();
    expect(await countPdfPages(noPageTree)).toBe(await pdfJsPageCount(noPageTree));
  });

  it('settle files without a document root from their bytes, as pdf.js does', async () => {
    const rootless = [
      '%PDF-1.4\n%%EOF\n',
      '%PDF-1.7\n1 0 obj << /Type /Page >> endobj\ntrailer << /Size 2 >>\n%%EOF\n',
      '%PDF-1.5\n1 0 obj << /Kids [] >> endobj\n',
    ].map((text) => Buffer.from(text, 'latin1'));
    for (const bytes of rootless) {
      expect(scanPageCount('application/pdf', bytes), bytes.toString('latin1')).toBeNull();
      expect(await pdfJsPageCount(bytes), bytes.toString('latin1')).toBeNull();
    }
    // A `#`-escaped name may spell /Root: only pdf.js can tell.
    const escaped = Buffer.from('%PDF-1.4\ntrailer << /R#6Fot 1 0 R >>\n%%EOF\n', 'latin1');
    expect(scanPageCount('application/pdf', escaped)).toBeUndefined();
  });

  it('refuse damaged TIFF chains (sharp counts those)', () => {
    const loop = Buffer.alloc(16);
    loop.write('II', 0, 'latin1');
    loop.writeUInt16LE(42, 2);
    loop.writeUInt32LE(8, 4);
    loop.writeUInt16LE(0, 8);
    loop.writeUInt32LE(8, 10); // the directory points at itself
    expect(countTiffPages(loop)).toBeNull();
    expect(countTiffPages(Buffer.from('not a tiff'))).toBeNull();
  });
});

/** The page count pdf.js opens `bytes` with; null when it cannot open them. */
async function pdfJsPageCount(bytes: Buffer): Promise<number | null> {
  try {
    const pdf = await openPdf(new Uint8Array(bytes));
    const pages = pdf.pageCount;
    await pdf.close();
    return pages;
  } catch {
    return null;
  }
}

const tokens = { inputTokensPerPage: 1000, outputTokensPerPage: 400, source: 'kind default' as const };

function call(system: string, id: string, endpoint: PlannedCall['endpoint'] = 'compare', repeat = 0): PlannedCall {
  return {
    key: `${system}|${id}|${endpoint}|-|${repeat}`,
    system,
    document: { id, tags: {}, truth: {}, baseline: {} },
    endpoint,
    mode: null,
    repeat,
  };
}

describe('estimates', () => {
  it('price every component: per call, per page (capped by maxPages), per million tokens in and out', () => {
    const system: EstimateSystem = {
      name: 'a',
      kind: 'openai',
      price: { perCall: 0.002, perPage: 0.01, perMillionInputTokens: 2, perMillionOutputTokens: 8 },
      maxPages: 2,
      tokens,
    };
    expect(estimateCallCost(system, 2)).toBeCloseTo(0.002 + 0.02 + (2 * 2000) / 1e6 + (8 * 800) / 1e6, 12);
    expect(estimateCallCost({ ...system, price: null }, 5)).toBe(0);
    const pages = new Map<string, number | null>([
      ['d1', 3],
      ['d2', null],
    ]);
    const [estimate] = estimateRun({
      systems: [system],
      calls: [call('a', 'd1'), call('a', 'd2'), call('a', 'd1', 'split')],
      pages,
      cachedKeys: new Set([call('a', 'd1', 'split').key]),
      cacheChecked: new Set(['a']),
      repeat: 1,
    });
    // d1 has 3 pages, capped at 2 a call; d2 is uncounted, so 1; the cached split is free.
    expect(estimate).toMatchObject({
      documents: 2,
      pages: 4,
      uncounted: 1,
      total: 3,
      cached: 1,
      calls: { compare: 2, split: 1 },
      exact: false,
    });
    expect(estimate!.costUsd).toBeCloseTo(estimateCallCost(system, 2) + estimateCallCost(system, 1), 12);
    expect(estimate!.basis).toContain('1000 in / 400 out tokens per page (kind default)');
  });

  it("counts a reader's answers once in the run's total, wherever pipelines share them", () => {
    const ocr: EstimateSystem = { name: 'ocr', kind: 'textract', price: { perPage: 0.01 }, tokens };
    const pipeline = (name: string, shared: boolean): EstimateSystem => ({
      name,
      kind: 'pipeline',
      price: { perCall: 0.001 },
      tokens,
      reader: { name: 'ocr', system: ocr, shared },
    });
    const pipelineCalls = (name: string) => ['d1', 'd2'].flatMap((id) => [call(name, id, 'extract'), call(name, id)]);
    const estimate = (systems: EstimateSystem[], calls: PlannedCall[], cached: PlannedCall[] = []) =>
      estimateRun({
        systems,
        calls,
        pages: new Map(),
        cachedKeys: new Set(cached.map((c) => c.key)),
        cacheChecked: new Set(),
        repeat: 1,
      });
    // Each system's figure includes the reader's two answers; the run pays for them once: $0.02 + 2 × $0.002.
    const inRun = estimate(
      [ocr, pipeline('a', true), pipeline('b', true)],
      [call('ocr', 'd1'), call('ocr', 'd2'), ...pipelineCalls('a'), ...pipelineCalls('b')],
    );
    expect(inRun.map((e) => e.costUsd)).toEqual([0.02, 0.022, 0.022]);
    expect(totalEstimate(inRun)).toBeCloseTo(0.024, 12);
    // The reader's answer for d1 is cached: the first pipeline pays for its read, the second shares it.
    const cached = estimate(
      [ocr, pipeline('a', true), pipeline('b', true)],
      [call('ocr', 'd1'), call('ocr', 'd2'), ...pipelineCalls('a'), ...pipelineCalls('b')],
      [call('ocr', 'd1')],
    );
    expect(cached.map((e) => e.sharedCostUsd)).toEqual([0, 0.01, 0.02]);
    expect(totalEstimate(cached)).toBeCloseTo(0.024, 12);
    // A reader not in the run is still one call per document for both pipelines.
    const alone = estimate(
      [pipeline('a', false), pipeline('b', false)],
      [...pipelineCalls('a'), ...pipelineCalls('b')],
    );
    expect(totalEstimate(alone)).toBeCloseTo(0.024, 12);
  });
});

describe('budget ledger', () => {
  it("estimates a pipeline's compare call at nothing: its price is its extractor's", () => {
    const ocr: EstimateSystem = { name: 'ocr', kind: 'textract', price: { perPage: 0.01 }, tokens };
    const pipeline: EstimateSystem = {
      name: 'a',
      kind: 'pipeline',
      price: { perCall: 0.001 },
      tokens,
      reader: { name: 'ocr', system: ocr, shared: true },
    };
    const estimate = createCallEstimator([ocr, pipeline], new Map());
    expect([call('ocr', 'd1'), call('a', 'd1', 'extract'), call('a', 'd1')].map(estimate)).toEqual([0.01, 0.001, 0]);
  });

  const record = (c: PlannedCall, cost: number | undefined, extra: Partial<CallRecord> = {}) =>
    ({
      key: c.key,
      system: c.system,
      status: 'ok',
      from_cache: false,
      ...(cost !== undefined ? { cost_usd: cost } : {}),
      ...extra,
    }) as CallRecord;

  it('never lets the spend pass the budget by more than the calls in flight, whatever the real costs', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            estimate: fc.double({ min: 0.001, max: 0.1, noNaN: true }),
            factor: fc.double({ min: 0, max: 3, noNaN: true }),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 6 }),
        (costs, limit, concurrency) => {
          const calls = costs.map((_, i) => call('s', `d${i}`));
          const estimates = new Map(calls.map((c, i) => [c.key, costs[i]!.estimate]));
          const ledger = createBudgetLedger(
            { run: null, systems: new Map([['s', limit]]) },
            [{ name: 's', common: { price: { perCall: 1 } } } as never],
            { systems: new Map(), run: 0 },
            (c) => estimates.get(c.key)!,
          );
          const inFlight: { c: PlannedCall; reserved: number; actual: number }[] = [];
          let spent = 0;
          let overruns = 0;
          for (const [i, c] of calls.entries()) {
            // A worker frees up: the oldest call in flight finishes and is recorded.
            if (inFlight.length === concurrency) {
              const done = inFlight.shift()!;
              ledger.settle(done.c, done.reserved, record(done.c, done.actual));
              spent += done.actual;
            }
            const admission = ledger.admit(c);
            if (!admission.ok) break;
            const actual = costs[i]!.estimate * costs[i]!.factor;
            overruns += Math.max(0, actual - admission.reserved);
            inFlight.push({ c, reserved: admission.reserved, actual });
          }
          for (const done of inFlight) spent += done.actual;
          // Only what started calls cost beyond their estimates can pass the budget…
          expect(spent).toBeLessThanOrEqual(limit + overruns + 1e-9);
          // …so with exact estimates (per call, per page), the budget holds.
          if (overruns === 0) expect(spent).toBeLessThanOrEqual(limit + 1e-9);
        },
      ),
    );
  });

  it('counts a cached answer as free and an answer of unknown cost as estimated; free calls always start', () => {
    const [a, b, c] = [call('s', 'a'), call('s', 'b'), call('s', 'c')];
    const ledger = createBudgetLedger(
      { run: 0.03, systems: new Map() },
      [{ name: 's', common: { price: { perCall: 0.01 } } } as never],
      { systems: new Map([['s', 0.005]]), run: 0.005 },
      (x) => (x === c ? 0 : 0.01),
    );
    const first = ledger.admit(a);
    expect(first.ok).toBe(true);
    ledger.settle(a, 0.01, record(a, undefined, { from_cache: true }));
    const second = ledger.admit(b);
    ledger.settle(b, 0.01, record(b, undefined));
    expect(second.ok).toBe(true);
    expect(ledger.spent().get('s')).toBeCloseTo(0.015, 12);
    expect(ledger.admit(call('s', 'd')).ok).toBe(true);
    const refused = ledger.admit(call('s', 'e'));
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toContain('budget reached');
    expect(ledger.admit(c).ok).toBe(true);
  });

  it("counts a reader's answer shared by pipelines once for the run, in full for each system", () => {
    // The reader's compare call ($0.01), and two pipelines' extract calls on its answer ($0.01 + $0.001 each).
    const recorded = [
      record(call('reader', 'd'), 0.01),
      record(call('a', 'd'), 0.011, { shared_cost_usd: 0.01 }),
      record(call('b', 'd'), 0.011, { shared_cost_usd: 0.01 }),
    ];
    const systems = ['reader', 'a', 'b'].map((name) => ({ name, common: { price: { perCall: 0.01 } } }) as never);
    const ledger = createBudgetLedger(
      { run: 0.02, systems: new Map() },
      systems,
      { systems: new Map(), run: 0 },
      (c) => (c.system === 'reader' ? 0.01 : 0.001),
    );
    for (const r of recorded) {
      const c = call(r.system, 'd');
      const admission = ledger.admit(c);
      expect(admission.ok).toBe(true);
      ledger.settle(c, admission.ok ? admission.reserved : 0, r);
    }
    expect(Object.fromEntries(ledger.spent())).toEqual({ reader: 0.01, a: 0.011, b: 0.011 });
    // $0.012 recorded for the run, not $0.032: no room for another reader call.
    const refused = ledger.admit(call('reader', 'e'));
    expect(!refused.ok && refused.message).toContain('$0.0120 recorded + $0.0000 in flight');
    // A resume reads the same from the records.
    const before = sumRecordedCost(recorded);
    expect(before.run).toBeCloseTo(0.012, 12);
    expect(Object.fromEntries(before.systems)).toEqual({ reader: 0.01, a: 0.011, b: 0.011 });
  });
});

describe('progress', () => {
  it("shows each priced system's spend so far, earlier invocations included", () => {
    let text = '';
    const stream = {
      write: (chunk: string) => {
        text += chunk;
        return true;
      },
    } as unknown as NodeJS.WritableStream;
    let now = 0;
    const progress = createProgress({ stream, quiet: false, intervalMs: 1000, now: () => now });
    progress({ type: 'run-start', planned: 3, alreadyDone: 1, documents: 2, spentUsd: { paid: 0.5 } });
    const c = call('paid', 'd1');
    progress({ type: 'call-start', key: c.key });
    now = 2000;
    progress({
      type: 'call-done',
      record: { key: c.key, system: 'paid', status: 'ok', from_cache: false, cost_usd: 0.01 } as CallRecord,
    });
    progress({
      type: 'call-done',
      record: { key: 'free|d1', system: 'free', status: 'ok', from_cache: false } as CallRecord,
    });
    expect(text).toContain('progress: 1/2 calls, 0 failed, 0 in flight');
    expect(text).toContain(', spent paid $0.5100\n');
    expect(text).not.toContain('free $');
  });
});
