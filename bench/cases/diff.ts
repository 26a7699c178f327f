/**
 * `docbench diff` on large runs: `compareRuns` on two synthetic scored runs held in memory, 2,000 and 10,000
 * documents, 2 modes × 40 field paths (required scalars, optional scalars each present in its own share of the
 * documents, line-item sub-fields with 0–6 items), markdown counts, region F1 and latency — every statistic
 * the diff bootstraps. Target: 10,000 documents under 10 s (docbench must never be the bottleneck of a CI job).
 */
import { type BenchCase, type BenchFigure, medianTimeMs } from '../harness.js';
import { DEFAULT_DIFF_SETTINGS } from '../../src/gate/index.js';
import { compareRuns } from '../../src/gate/compare-runs.js';
import type { DiffDocument, DiffRun, PathCounts } from '../../src/gate/read-diff-run.js';
import type { RunManifest } from '../../src/run-dir/manifest.js';
import type { RunSummary } from '../../src/run-dir/evaluation-types.js';
import { createRandom } from '../../src/random.js';
import type { Mode } from '../../src/types.js';

const MODES: Mode[] = ['fast', 'slow'];
const REQUIRED = Array.from({ length: 20 }, (_, i) => `header.field_${String(i).padStart(2, '0')}`);
/** Optional scalars: each present in its own share of the documents, so each has its own document count. */
const OPTIONAL = Array.from({ length: 12 }, (_, i) => ({
  path: `optional.field_${String(i).padStart(2, '0')}`,
  share: 0.3 + 0.055 * i,
}));
const ITEM_FIELDS = ['cpt', 'units', 'charge', 'modifier', 'dos', 'description', 'pos', 'ndc'].map(
  (f) => `codes[].${f}`,
);

/** Per-document verdict counts of one field: one item, right with probability `accuracy`. */
function drawCounts(random: () => number, items: number, accuracy: number): PathCounts {
  const counts: PathCounts = [0, 0, 0];
  for (let k = 0; k < items; k++) {
    const u = random();
    if (u < accuracy) counts[0]++;
    else if (u < accuracy + (1 - accuracy) / 2) {
      counts[1]++;
      counts[2]++;
    } else counts[2]++;
  }
  return counts;
}

function tenths(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function toDocument(
  id: string,
  paths: Record<Mode, Map<string, PathCounts>>,
  extras: Pick<DiffDocument, 'similarity' | 'markdownCounts' | 'regionsF1' | 'latency'>,
): DiffDocument {
  const extraction: DiffDocument['extraction'] = {};
  for (const mode of MODES) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const c of paths[mode].values()) {
      tp += c[0];
      fp += c[1];
      fn += c[2];
    }
    const f1 = tp + fp + fn === 0 ? 1 : (2 * tp) / (2 * tp + fp + fn);
    extraction[mode] = { f1, exactMatch: fp === 0 && fn === 0, tp, fp, fn, paths: paths[mode] };
  }
  return { id, status: 'ok', extraction, ...extras };
}

/**
 * Two runs of `documents` documents: the candidate slightly better on some fields, worse on one, with
 * per-document correlation (the same document is hard for both).
 */
export function makeDiffRuns(documents: number, seed = 7): { baseline: DiffRun; candidate: DiffRun; paths: number } {
  const random = createRandom(seed);
  const base = new Map<string, DiffDocument>();
  const cand = new Map<string, DiffDocument>();
  const pathNames = new Set<string>();
  for (let d = 0; d < documents; d++) {
    const id = `doc-${String(d).padStart(6, '0')}`;
    const items = random() < 0.8 ? 1 + Math.floor(random() * 6) : 0;
    const difficulty = random() * 0.2;
    const present = OPTIONAL.filter((o) => random() < o.share).map((o) => o.path);
    const basePaths = {} as Record<Mode, Map<string, PathCounts>>;
    const candPaths = {} as Record<Mode, Map<string, PathCounts>>;
    for (const mode of MODES) {
      const accuracy = (mode === 'slow' ? 0.95 : 0.88) - difficulty;
      basePaths[mode] = new Map();
      candPaths[mode] = new Map();
      const fields: [string, number][] = [
        ...REQUIRED.map((p): [string, number] => [p, 1]),
        ...present.map((p): [string, number] => [p, 1]),
        ...(items > 0 ? ITEM_FIELDS.map((p): [string, number] => [p, items]) : []),
      ];
      for (const [fieldPath, count] of fields) {
        pathNames.add(`${mode}:${fieldPath}`);
        const b = drawCounts(random, count, accuracy);
        // Most documents score the same in both runs; some are redrawn, one field got worse.
        const shift = fieldPath === 'codes[].units' ? -0.05 : fieldPath.endsWith('_03') ? 0.03 : 0;
        const c =
          random() < 0.85
            ? ([...b] as PathCounts)
            : drawCounts(random, count, Math.min(1, Math.max(0, accuracy + shift)));
        basePaths[mode].set(fieldPath, b);
        candPaths[mode].set(fieldPath, c);
      }
    }
    const length = 2000 + Math.floor(random() * 8000);
    const baseEdits = Math.floor(length * random() * 0.2);
    const candEdits = Math.max(0, baseEdits + Math.floor((random() - 0.55) * 200));
    const baseRegions = 0.6 + random() * 0.4;
    const extras = (
      edits: number,
      regions: number,
      scale: number,
    ): Pick<DiffDocument, 'similarity' | 'markdownCounts' | 'regionsF1' | 'latency'> => ({
      similarity: 1 - edits / length,
      markdownCounts: { edits, length },
      regionsF1: regions,
      // The runner records latency to 0.1 ms: fractional, as in a real run.
      latency: {
        'extract:fast': tenths(800 * scale + random() * 400),
        'extract:slow': tenths(3000 * scale + random() * 2000),
        markdown: tenths(1500 * scale + random() * 500),
      },
    });
    base.set(id, toDocument(id, basePaths, extras(baseEdits, baseRegions, 1)));
    cand.set(
      id,
      toDocument(id, candPaths, extras(candEdits, Math.min(1, baseRegions + (random() - 0.5) * 0.05), 0.97)),
    );
  }
  return { baseline: makeRun('baseline', base), candidate: makeRun('candidate', cand), paths: pathNames.size };
}

function makeRun(runId: string, documents: Map<string, DiffDocument>): DiffRun {
  // compareRuns reads only these parts of run.json and summary.json; the rest of a real run is irrelevant
  // here, so partial objects stand in for them.
  const manifest = {
    run_id: runId,
    created_at: '2026-01-01T00:00:00.000Z',
    status: 'completed',
    dataset: { name: 'synthetic', version: '1', content_hash: 'sha256:bench' },
    service: { base_url: 'https://service.example.com' },
  } as unknown as RunManifest;
  const summary = { systems: { service: { extraction: { fast: {}, slow: {} } } } } as unknown as RunSummary;
  return { dir: `/bench/${runId}`, manifest, summary, system: 'service', documents };
}

export const cases: BenchCase[] = [
  {
    id: 'diff',
    title: 'docbench diff: compareRuns on large runs (2 modes × 40 field paths, 10,000 resamples)',
    async run(): Promise<BenchFigure[]> {
      const settings = { ...DEFAULT_DIFF_SETTINGS };
      const small = makeDiffRuns(2000);
      let result = compareRuns(small.baseline, small.candidate, { settings });
      const smallMs = await medianTimeMs(
        () => (result = compareRuns(small.baseline, small.candidate, { settings })),
        3,
        0,
      );
      const smallNote = `${small.paths} field paths, ${result.fields.length} compared, ${result.headline.length} headline, verdict ${result.verdict}`;
      const large = makeDiffRuns(10_000);
      const t0 = performance.now();
      const largeResult = compareRuns(large.baseline, large.candidate, { settings });
      const largeMs = performance.now() - t0;
      return [
        { name: '2,000 documents (median of 3)', value: smallMs, unit: 'ms', note: smallNote },
        {
          name: '10,000 documents (one run)',
          value: largeMs,
          unit: 'ms',
          target: { op: '<', value: 10_000 },
          note: `${largeResult.fields.length} field paths, verdict ${largeResult.verdict}`,
        },
      ];
    },
  },
];
