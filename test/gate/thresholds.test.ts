/** The gate section: validation naming the key, flags over the file, and the checks each threshold makes. */
import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  applyGateFlags,
  evaluateGate,
  hasGateChecks,
  parseGateSection,
  readGateSection,
} from '../../src/gate/index.js';
import { resolveConfig } from '../../src/config.js';
import { UsageError } from '../../src/errors.js';
import type { DocumentEvaluation, RunSummary } from '../../src/run-dir/evaluation-types.js';
import type { RunSummaryV1 } from '../../src/run-dir/summary-v1.js';
import { upgradeDocumentV1, upgradeSummaryV1 } from '../../src/run-dir/upgrade-v1.js';
import { makeDocuments, writeRun } from './run-builder.js';

function expectInvalid(raw: unknown, key: string): void {
  let error: unknown;
  try {
    parseGateSection(raw, 'docbench.config.json');
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).code).toBe('CONFIG_INVALID');
  expect((error as UsageError).message).toContain(key);
}

describe('parseGateSection', () => {
  it('accepts the documented schema', () => {
    const gate = parseGateSection({
      min_f1: 0.9,
      min_similarity: 0.85,
      max_p95_ms: 60000,
      max_failed_documents: 2,
      modes: { fast: { min_f1: 0.8 } },
      fields: { 'codes[].cpt': { min_f1: 0.95 } },
      tags: { 'tier=fax': { min_f1: 0.6 } },
      latency: { compare: { max_p95_ms: 30000 } },
      diff: {
        tolerance: 0.02,
        alpha: 0.01,
        primary: 'markdown.similarity',
        resamples: 2000,
        seed: 7,
        fail_on_fields: true,
      },
    });
    expect(gate.min_f1).toBe(0.9);
    expect(gate.modes.fast).toEqual({ min_f1: 0.8 });
    expect(gate.fields['codes[].cpt']).toEqual({ min_f1: 0.95 });
    expect(gate.diff).toEqual({
      tolerance: 0.02,
      alpha: 0.01,
      primary: 'markdown.similarity',
      resamples: 2000,
      seed: 7,
      fail_on_fields: true,
    });
    expect(hasGateChecks(gate)).toBe(true);
    expect(parseGateSection({ diff: { tolerance: 0.02 } }).diff.primary).toBeNull();
    // Both table figures the diff tests paired may be the primary metric.
    for (const primary of ['markdown.blocks.table_teds', 'markdown.blocks.table_teds_structure'])
      expect(parseGateSection({ diff: { primary } }).diff.primary).toBe(primary);
    expect(() => parseGateSection({ diff: { primary: 'field_f1' } })).toThrow(
      /gate\.diff\.primary: expected a headline metric/,
    );
    expect(hasGateChecks(parseGateSection({ diff: { tolerance: 0.02 } }))).toBe(false);
  });

  it('names the key of every invalid value', () => {
    expectInvalid({ min_f1: 1.5 }, 'gate.min_f1');
    expectInvalid({ min_f1: '0.9' }, 'gate.min_f1');
    expectInvalid({ min_fl: 0.9 }, 'gate.min_fl');
    expectInvalid({ modes: { turbo: { min_f1: 0.9 } } }, 'gate.modes.turbo');
    expectInvalid({ modes: { fast: { min_similarity: 0.9 } } }, 'gate.modes.fast.min_similarity');
    expectInvalid({ fields: { 'codes[0].cpt': { min_f1: 0.9 } } }, 'gate.fields.codes[0].cpt');
    expectInvalid({ fields: { 'codes[].cpt': { max_f1: 0.9 } } }, 'gate.fields.codes[].cpt.max_f1');
    expectInvalid({ tags: { fax: { min_f1: 0.9 } } }, 'gate.tags.fax');
    expectInvalid({ latency: { upload: { max_p95_ms: 1 } } }, 'gate.latency.upload');
    expectInvalid({ max_p95_ms: -1 }, 'gate.max_p95_ms');
    expectInvalid({ max_failed_documents: 1.5 }, 'gate.max_failed_documents');
    expectInvalid({ diff: { alpha: 1 } }, 'gate.diff.alpha');
    expectInvalid({ diff: { tolerence: 0.1 } }, 'gate.diff.tolerence');
    expectInvalid([0.9], 'gate');
    expect(() => parseGateSection({ maxP95Ms: 1000 })).toThrow(
      /gate\.maxP95Ms: unknown setting; did you mean "max_p95_ms"\?/,
    );
  });

  it('lets flags override the top level while per-scope values stay', () => {
    const gate = applyGateFlags(parseGateSection({ min_f1: 0.9, modes: { fast: { min_f1: 0.8 } } }), {
      minF1: 0.95,
      tolerance: 0.03,
    });
    expect(gate.min_f1).toBe(0.95);
    expect(gate.modes.fast!.min_f1).toBe(0.8);
    expect(gate.diff.tolerance).toBe(0.03);
    expect(() => applyGateFlags(gate, { minSimilarity: 2 })).toThrow(/--min-similarity/);
  });

  it('stops config resolution on an invalid gate section (exit 2 material)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'docbench-gate-config-'));
    try {
      await writeFile(path.join(dir, 'docbench.config.yaml'), 'gate:\n  modes:\n    slow:\n      min_f1: high\n');
      expect(() => resolveConfig({ cwd: dir, env: {}, sections: { gate: readGateSection } })).toThrow(
        'docbench.config.yaml: gate.modes.slow.min_f1: expected a number from 0 to 1 (a rate: 0.9 = 90%), got "high"',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('evaluateGate', () => {
  async function run(): Promise<{ summary: RunSummary; documents: DocumentEvaluation[] }> {
    const dir = await mkdtemp(path.join(tmpdir(), 'docbench-gate-eval-'));
    try {
      // 10 documents of 6 fields; doc-001 and doc-006 miss codes[0].cpt. Micro F1 = 116/118; their document F1 10/11.
      const documents = await writeRun(dir, {
        runId: 'r',
        documents: makeDocuments(
          10,
          'slow',
          (i, v) => {
            if (i % 5 === 0) v['codes[0].cpt'] = 'fn';
          },
          (i) => ({ similarity: 0.9, latency: { 'extract:slow': 1000 + i * 100, compare: 500 } }),
        ),
      });
      const { readFile } = await import('node:fs/promises');
      // Written in schema 1: read as the service and the incumbent, as the gate command reads it.
      const v1 = JSON.parse(await readFile(path.join(dir, 'summary.json'), 'utf8')) as RunSummaryV1;
      return { summary: upgradeSummaryV1(v1), documents: documents.map((d) => upgradeDocumentV1(d, v1)) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('checks run, mode, field, tag, latency and per-document thresholds', async () => {
    const { summary, documents } = await run();
    const { result } = evaluateGate(
      summary,
      documents,
      parseGateSection({
        min_f1: 0.9,
        min_similarity: 0.95,
        max_p95_ms: 1900,
        min_document_f1: 0.95,
        fields: { 'codes[].cpt': { min_f1: 0.95 }, 'codes[].cpx': { min_f1: 0.5 } },
        tags: { 'tier=digital': { min_f1: 0.99 }, 'tier=scan': { min_f1: 0.5 } },
        latency: { compare: { max_p50_ms: 400 } },
      }),
    );
    const byMetric = Object.fromEntries(result.checks.map((c) => [`${c.metric}${c.scope ? `[${c.scope}]` : ''}`, c]));
    expect(byMetric['extraction.slow.f1']!.actual).toBeCloseTo(116 / 118, 10);
    expect(byMetric['extraction.slow.f1']!.passed).toBe(true);
    expect(byMetric['markdown.similarity']!.passed).toBe(false);
    expect(byMetric['latency_ms.extract:slow.p95']).toMatchObject({ op: '<=', threshold: 1900, passed: true });
    expect(byMetric['latency_ms.compare.p95']).toMatchObject({ actual: 500, passed: true });
    expect(byMetric['latency_ms.compare.p50']).toMatchObject({ actual: 500, passed: false });
    // codes[].cpt: 18 TP, 2 FN → F1 36/38.
    expect(byMetric['fields.slow.codes[].cpt.f1']!.actual).toBeCloseTo(36 / 38, 10);
    expect(byMetric['fields.slow.codes[].cpt.f1']!.passed).toBe(false);
    expect(byMetric['fields.slow.codes[].cpx.f1']).toMatchObject({ actual: null, passed: false });
    expect(byMetric['fields.slow.codes[].cpx.f1']!.message).toContain('no scores');
    // doc-001 (digital) and doc-006 (fax) are the misses: digital F1 58/59 < 0.99.
    expect(byMetric['extraction.slow.f1[tier=digital]']!.passed).toBe(false);
    expect(byMetric['extraction.slow.f1[tier=scan]']).toMatchObject({ actual: null, passed: false });
    expect(byMetric['documents.extraction.slow.f1']).toMatchObject({ actual: 10 / 11, passed: false });
    expect(byMetric['documents.failed']).toMatchObject({ op: '<=', threshold: 0, actual: 0, passed: true });
    expect(result.document_failures.map((f) => f.document_id)).toEqual(['doc-001', 'doc-006']);
    expect(result.document_failures[0]!.reasons[0]).toContain('field F1 (slow) 0.909 < 0.95');
    expect(result.passed).toBe(false);
  });

  it('passes when every threshold holds, and a mode override applies only to its mode', async () => {
    const { summary, documents } = await run();
    const { result, notes } = evaluateGate(
      summary,
      documents,
      parseGateSection({ min_f1: 0.99, modes: { slow: { min_f1: 0.9 }, fast: { min_f1: 0.99 } } }),
    );
    expect(result.checks.map((c) => `${c.metric} ${c.threshold}`)).toEqual([
      'extraction.slow.f1 0.9',
      'documents.failed 0',
    ]);
    expect(result.passed).toBe(true);
    expect(notes[0]).toContain('gate.modes.fast');
  });

  it('applies gate.systems.<name> to that system and fails a threshold for a system the run does not have', async () => {
    const { summary, documents } = await run();
    // The fixture's one system (similarity 0.9 on every document): its own thresholds, beside the top level's.
    expect(summary.system_names).toEqual(['service']);
    const { result } = evaluateGate(
      summary,
      documents,
      parseGateSection({
        min_f1: 0.5,
        systems: { service: { min_similarity: 0.95, modes: { slow: { min_f1: 0.99 } } }, other: { min_f1: 0.1 } },
      }),
    );
    const bySystem = (name: string) =>
      result.checks.filter((c) => c.system === name).map((c) => `${c.metric} ${c.passed ? 'pass' : 'FAIL'}`);
    expect(bySystem('service')).toEqual([
      'extraction.slow.f1 pass',
      'documents.failed pass',
      'extraction.slow.f1 FAIL',
      'markdown.similarity FAIL',
      'documents.failed pass',
    ]);
    expect(bySystem('other')).toEqual(['system FAIL']);
    expect(result.checks.find((c) => c.system === 'other')!.message).toContain('no system named other');
    expect(result.passed).toBe(false);
    expect(() => parseGateSection({ systems: { 'Bad Name': { min_f1: 0.5 } } })).toThrow(/gate\.systems\.Bad Name/);
    expect(() => parseGateSection({ systems: { incumbent: { min_f: 0.5 } } })).toThrow(
      /gate\.systems\.incumbent\.min_f/,
    );
  });

  it('fails on failed documents by default once any threshold is set, and allows them when configured', async () => {
    const { summary, documents } = await run();
    const failing = {
      ...summary,
      systems: {
        ...summary.systems,
        [summary.primary]: { ...summary.systems[summary.primary]!, documents: { total: 10, succeeded: 9, failed: 1 } },
      },
    };
    expect(evaluateGate(failing, documents, parseGateSection({ min_f1: 0.5 })).result.passed).toBe(false);
    expect(
      evaluateGate(failing, documents, parseGateSection({ min_f1: 0.5, max_failed_documents: 1 })).result.passed,
    ).toBe(true);
  });

  it('min_region_reading_order: a minimum of the normalised ARD, failing when the run cannot compute it', async () => {
    const { summary, documents } = await run();
    const regions = (reading_order: number | null | undefined) => ({
      ...summary,
      systems: {
        ...summary.systems,
        [summary.primary]: {
          ...summary.systems[summary.primary]!,
          regions: {
            at50: { precision: 1, recall: 1, f1: 1 },
            at75: { precision: 1, recall: 1, f1: 1 },
            mean_iou: 1,
            char_accuracy: 1,
            ...(reading_order === undefined ? {} : { reading_order }),
            documents: 10,
            failed: 0,
          },
        },
      },
    });
    const gate = (min: number, s: RunSummary = summary) =>
      evaluateGate(s, documents, parseGateSection({ min_region_reading_order: min })).result.checks.find(
        (c) => c.metric === 'regions.reading_order',
      )!;
    // Higher is better (1 = the truth's order): the threshold is a floor.
    expect(gate(0.8, regions(0.85))).toMatchObject({ op: '>=', actual: 0.85, passed: true });
    expect(gate(0.9, regions(0.85))).toMatchObject({
      passed: false,
      message: 'region reading order (normalised ARD, higher is better) 0.85 is below the minimum 0.9',
    });
    // Not computed: no regions at all, no page with a region found, or a summary older than the figure.
    expect(gate(0)).toMatchObject({ actual: null, passed: false });
    expect(gate(0).message).toContain('not computed — this run has no region scores');
    expect(gate(0, regions(null)).message).toContain('no page of this run has a region matched at IoU ≥ 0.5');
    expect(gate(0, regions(undefined)).message).toContain('rescore it with docbench score');
    // Validated like every rate, and allowed per system.
    expect(() => parseGateSection({ min_region_reading_order: 1.5 })).toThrow(/gate\.min_region_reading_order/);
    expect(parseGateSection({ systems: { other: { min_region_reading_order: 0.9 } } }).systems.other).toMatchObject({
      min_region_reading_order: 0.9,
    });
    expect(hasGateChecks(parseGateSection({ min_region_reading_order: 0.9 }))).toBe(true);
  });
});
