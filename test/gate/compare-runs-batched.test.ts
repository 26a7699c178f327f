/**
 * compareRuns bootstraps every comparison in one batch (compareSystemsMany). The reference here is the
 * computation it replaced: one compareSystems call per headline metric, field path and latency key, with the
 * index form of each statistic. On a random run pair, every Δ, interval and p-value must be the same number.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DIFF_SETTINGS, type DiffDocument, type DiffRun } from '../../src/gate/index.js';
import { compareRuns } from '../../src/gate/compare-runs.js';
import { bootstrapP } from '../../src/score/index.js';
import type { PathCounts } from '../../src/gate/read-diff-run.js';
import { compareSystems, createMicroF1Delta, createRandom, type CountsLike } from '../../src/score/stats/index.js';
import { createMicroSimilarityDelta } from '../../src/score/markdown/index.js';
import type { RunManifest } from '../../src/run-dir/manifest.js';
import type { RunSummary } from '../../src/run-dir/evaluation-types.js';
import type { Mode } from '../../src/types.js';

const MODES: Mode[] = ['fast', 'slow'];
const PATHS = ['name', 'total', 'date', 'optional.a', 'optional.b', 'codes[].cpt', 'codes[].units'];

function makeRuns(documents: number, seed: number): { baseline: DiffRun; candidate: DiffRun } {
  const random = createRandom(seed);
  const draw = (items: number): PathCounts => {
    const c: PathCounts = [0, 0, 0];
    for (let k = 0; k < items; k++) {
      const u = random();
      if (u < 0.8) c[0]++;
      else if (u < 0.9) {
        c[1]++;
        c[2]++;
      } else c[2]++;
    }
    return c;
  };
  const runs = [new Map<string, DiffDocument>(), new Map<string, DiffDocument>()] as const;
  for (let d = 0; d < documents; d++) {
    const id = `doc-${String(d).padStart(4, '0')}`;
    const items = Math.floor(random() * 4);
    const present = PATHS.filter((p) =>
      p.startsWith('codes') ? items > 0 : p.startsWith('optional') ? random() < 0.5 : true,
    );
    const length = 100 + Math.floor(random() * 900);
    const region = random();
    runs.forEach((run, side) => {
      const extraction: DiffDocument['extraction'] = {};
      for (const mode of MODES) {
        const paths = new Map<string, PathCounts>(present.map((p) => [p, draw(p.startsWith('codes') ? items : 1)]));
        const sum = [...paths.values()].reduce((s, c) => [s[0] + c[0], s[1] + c[1], s[2] + c[2]], [0, 0, 0]);
        const f1 = sum[0] + sum[1] + sum[2] === 0 ? 1 : (2 * sum[0]) / (2 * sum[0] + sum[1] + sum[2]);
        extraction[mode] = { f1, exactMatch: sum[1] + sum[2] === 0, tp: sum[0], fp: sum[1], fn: sum[2], paths };
      }
      const edits = Math.floor(random() * length * 0.3);
      run.set(id, {
        id,
        status: random() < 0.05 ? 'failed' : 'ok',
        extraction,
        similarity: 1 - edits / length,
        markdownCounts: { edits, length },
        regionsF1: Math.min(1, region + side * (random() - 0.5) * 0.1),
        latency: {
          'extract:fast': Math.round((500 + random() * 300) * 10) / 10,
          'extract:slow': Math.round((2000 + random() * 900) * 10) / 10,
        },
      });
    });
  }
  // compareRuns reads only these parts of run.json and summary.json.
  const run = (runId: string, documents: Map<string, DiffDocument>): DiffRun => ({
    dir: runId,
    manifest: {
      run_id: runId,
      created_at: '2026-01-01T00:00:00.000Z',
      status: 'completed',
      dataset: { name: 'd', version: '1', content_hash: 'sha256:aa' },
      service: { base_url: 'https://service.example.com' },
      systems: [],
    } as unknown as RunManifest,
    summary: {
      systems: { service: { extraction: { fast: {}, slow: {} } } },
      metric_versions: {},
    } as unknown as RunSummary,
    system: 'service',
    documents,
  });
  return { baseline: run('base', runs[0]), candidate: run('cand', runs[1]) };
}

describe('compareRuns with batched bootstraps', () => {
  it('gives the same numbers as one compareSystems call per metric, field path and latency key', () => {
    const { baseline, candidate } = makeRuns(300, 11);
    const settings = { ...DEFAULT_DIFF_SETTINGS, resamples: 400, seed: 3 };
    const boot = { seed: settings.seed, resamples: settings.resamples };
    const diff = compareRuns(baseline, candidate, { settings });
    const ids = [...baseline.documents.keys()].sort();
    const pairs = ids.map((id) => ({ base: baseline.documents.get(id)!, cand: candidate.documents.get(id)! }));
    const toCounts = (c: PathCounts | undefined): CountsLike =>
      c ? { tp: c[0], fp: c[1], fn: c[2] } : { tp: 0, fp: 0, fn: 0 };
    const documentF1 = (c: CountsLike) => (c.tp + c.fp + c.fn === 0 ? 1 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn));

    let fieldsChecked = 0;
    for (const mode of MODES) {
      const base = pairs.map((p) => p.base.extraction[mode]!);
      const cand = pairs.map((p) => p.cand.extraction[mode]!);
      const f1 = compareSystems(
        cand.map((e) => e.f1),
        base.map((e) => e.f1),
        { ...boot, statistic: createMicroF1Delta(cand, base) },
      );
      const exact = compareSystems(
        cand.map((e) => (e.exactMatch ? 1 : 0)),
        base.map((e) => (e.exactMatch ? 1 : 0)),
        boot,
      );
      for (const [name, reference] of [
        [`extraction.${mode}.f1`, f1],
        [`extraction.${mode}.exact_match_rate`, exact],
      ] as const) {
        const row = diff.headline.find((h) => h.metric === name)!;
        expect(
          { delta: row.delta, ci95: row.ci95, p: row.p_bootstrap, sign: row.p_sign, wilcoxon: row.p_wilcoxon },
          name,
        ).toEqual({
          delta: reference.delta,
          ci95: reference.ci95,
          p: bootstrapP(reference),
          sign: reference.pSign,
          wilcoxon: reference.pWilcoxon,
        });
      }
      for (const fieldPath of PATHS) {
        const b: CountsLike[] = [];
        const c: CountsLike[] = [];
        for (const p of pairs) {
          const x = p.base.extraction[mode]!.paths.get(fieldPath);
          const y = p.cand.extraction[mode]!.paths.get(fieldPath);
          if (!x && !y) continue;
          b.push(toCounts(x));
          c.push(toCounts(y));
        }
        const reference = compareSystems(c.map(documentF1), b.map(documentF1), {
          ...boot,
          statistic: createMicroF1Delta(c, b),
        });
        const row = diff.fields.find((f) => f.mode === mode && f.path === fieldPath)!;
        expect(
          { documents: row.documents, delta: row.delta, ci95: row.ci95, p: row.p_bootstrap },
          `${mode} ${fieldPath}`,
        ).toEqual({ documents: b.length, delta: reference.delta, ci95: reference.ci95, p: bootstrapP(reference) });
        fieldsChecked++;
      }
    }
    expect(fieldsChecked).toBe(diff.fields.length);

    const similarity = compareSystems(
      pairs.map((p) => p.cand.similarity!),
      pairs.map((p) => p.base.similarity!),
      {
        ...boot,
        statistic: createMicroSimilarityDelta(
          pairs.map((p) => p.cand.markdownCounts!),
          pairs.map((p) => p.base.markdownCounts!),
        ),
      },
    );
    const regions = compareSystems(
      pairs.map((p) => p.cand.regionsF1!),
      pairs.map((p) => p.base.regionsF1!),
      boot,
    );
    for (const [name, reference] of [
      ['markdown.similarity', similarity],
      ['regions.f1_at50', regions],
    ] as const) {
      const row = diff.headline.find((h) => h.metric === name)!;
      expect({ delta: row.delta, ci95: row.ci95, p: row.p_bootstrap, wilcoxon: row.p_wilcoxon }, name).toEqual({
        delta: reference.delta,
        ci95: reference.ci95,
        p: bootstrapP(reference),
        wilcoxon: reference.pWilcoxon,
      });
    }
    for (const key of ['extract:fast', 'extract:slow']) {
      const reference = compareSystems(
        pairs.map((p) => p.cand.latency[key]!),
        pairs.map((p) => p.base.latency[key]!),
        { ...boot, tieTolerance: 0 },
      );
      const row = diff.latency.find((l) => l.key === key)!;
      expect({ delta: row.mean_delta, ci95: row.ci95, wilcoxon: row.p_wilcoxon }, key).toEqual({
        delta: reference.delta,
        ci95: reference.ci95,
        wilcoxon: reference.pWilcoxon,
      });
    }
  });
});
