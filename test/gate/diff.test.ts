/**
 * docbench diff on runs constructed with known per-document verdicts: a regressed field path is named and
 * the command exits 1; identical runs and noise below the tolerance are no regression; a large drop on too few
 * documents is not significant; different datasets are refused unless allowed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli.js';
import { readDiffRun, DEFAULT_DIFF_SETTINGS } from '../../src/gate/index.js';
import { compareRuns } from '../../src/gate/compare-runs.js';
import { bootstrapP, collapseFieldPath } from '../../src/score/index.js';
import type { DiffResult } from '../../src/gate/index.js';
import { makeDocuments, writeRun } from './run-builder.js';

let work: string;

async function docbench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void) =>
    ({
      write: (chunk: string) => {
        append(String(chunk));
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  const code = await main(args, {
    cwd: work,
    env: { PATH: process.env.PATH },
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
  });
  return { code, stdout, stderr };
}

async function readDiff(dir: string): Promise<DiffResult> {
  return JSON.parse(await readFile(path.join(work, dir, 'diff.json'), 'utf8')) as DiffResult;
}

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-diff-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('docbench diff', () => {
  it('names the regressed field path, lists the flipped documents and exits 1', async () => {
    await writeRun(path.join(work, 'base'), { runId: 'base', documents: makeDocuments(40, 'slow') });
    // 30 of 40 documents get codes[0].cpt wrong; nothing else changes.
    await writeRun(path.join(work, 'cand'), {
      runId: 'cand',
      documents: makeDocuments(40, 'slow', (i, v) => {
        if (i % 4 !== 0) v['codes[0].cpt'] = 'fp+fn';
      }),
    });
    const { code, stdout } = await docbench(['diff', 'base', 'cand', '--out', 'out']);
    expect(code).toBe(1);
    expect(stdout).toContain('REGRESSION');
    expect(stdout).toContain('codes[].cpt');
    const diff = await readDiff('out');
    expect(diff.verdict).toBe('regression');
    const f1 = diff.headline.find((m) => m.metric === 'extraction.slow.f1')!;
    // Baseline 240 TP; candidate 210 TP, 30 FP, 30 FN → micro F1 420/480 = 0.875.
    expect(f1.baseline).toBe(1);
    expect(f1.candidate).toBeCloseTo(0.875, 10);
    expect(f1.delta).toBeCloseTo(-0.125, 10);
    expect(f1.ci95[1]).toBeLessThan(0);
    expect(f1.regression).toBe(true);
    expect(f1.losses).toBe(30);
    const regressed = diff.fields.filter((f) => f.regression).map((f) => `${f.mode}:${f.path}`);
    expect(regressed).toEqual(['slow:codes[].cpt']);
    const cpt = diff.fields.find((f) => f.path === 'codes[].cpt')!;
    expect(cpt.candidate).toEqual({ f1: 0.625, tp: 50, fp: 30, fn: 30 });
    expect(cpt.p_adjusted).toBeGreaterThanOrEqual(cpt.p_bootstrap);
    for (const other of diff.fields.filter((f) => f.path !== 'codes[].cpt')) expect(other.delta).toBe(0);
    expect(diff.flips[0]!.to_wrong).toHaveLength(30);
    expect(diff.flips[0]!.to_wrong).toContain('doc-002');
    expect(diff.flips[0]!.to_wrong).not.toContain('doc-001');
    expect(diff.flips[0]!.to_correct).toEqual([]);
    const md = await readFile(path.join(work, 'out', 'diff.md'), 'utf8');
    expect(md).toContain('❌ Regression');
    expect(md).toContain('codes\\[\\].cpt');
    const html = await readFile(path.join(work, 'out', 'diff.html'), 'utf8');
    expect(html).toContain('codes[].cpt');
    expect(html).not.toMatch(/<script/i);
  });

  it('finds no regression between identical runs: every Δ is 0 and every p is 1, exit 0', async () => {
    const documents = makeDocuments(
      30,
      'slow',
      (i, v) => {
        if (i % 5 === 0) v.total = 'fn';
      },
      (i) => ({ similarity: 0.8 + (i % 7) / 50 }),
    );
    await writeRun(path.join(work, 'a'), { runId: 'a', documents });
    await writeRun(path.join(work, 'b'), { runId: 'b', documents });
    const { code, stdout } = await docbench(['diff', 'a', 'b']);
    expect(code).toBe(0);
    expect(stdout).toContain('no regression');
    const diff = await readDiff(path.join('b', 'diff'));
    expect(diff.verdict).toBe('no regression');
    expect(diff.headline.map((m) => m.metric)).toEqual([
      'extraction.slow.f1',
      'extraction.slow.exact_match_rate',
      'markdown.similarity',
    ]);
    for (const m of [...diff.headline, ...diff.fields]) {
      expect(m.delta).toBe(0);
      expect(m.p_adjusted).toBe(1);
      expect(m.regression || m.improvement).toBe(false);
    }
  });

  it('calls a significant drop below the tolerance no regression, and a regression with a smaller tolerance', async () => {
    // No document is exact in either run (name is missed everywhere), so only field F1 can move.
    await writeRun(path.join(work, 'base'), {
      runId: 'base',
      documents: makeDocuments(200, 'slow', (_i, v) => {
        v.name = 'fn';
      }),
    });
    // 8 of 200 documents also get total wrong: micro F1 drops 2000/2200 − 1984/2200 ≈ 0.0073, below the tolerance 0.01.
    await writeRun(path.join(work, 'cand'), {
      runId: 'cand',
      documents: makeDocuments(200, 'slow', (i, v) => {
        v.name = 'fn';
        if (i % 25 === 3) v.total = 'fp+fn';
      }),
    });
    const loose = await docbench(['diff', 'base', 'cand', '--out', 'loose']);
    expect(loose.code).toBe(0);
    const diff = await readDiff('loose');
    const f1 = diff.headline.find((m) => m.metric === 'extraction.slow.f1')!;
    expect(f1.delta).toBeCloseTo(1984 / 2200 - 2000 / 2200, 10);
    expect(diff.headline.find((m) => m.metric === 'extraction.slow.exact_match_rate')!.delta).toBe(0);
    expect(f1.p_adjusted).toBeLessThanOrEqual(0.05);
    expect(f1.regression).toBe(false);
    const strict = await docbench(['diff', 'base', 'cand', '--out', 'strict', '--tolerance', '0.001']);
    expect(strict.code).toBe(1);
    expect((await readDiff('strict')).headline.find((m) => m.metric === 'extraction.slow.f1')!.regression).toBe(true);
  });

  it('calls noise (as many documents better as worse) no regression', async () => {
    await writeRun(path.join(work, 'base'), {
      runId: 'base',
      documents: makeDocuments(120, 'slow', (i, v) => {
        if (i % 10 === 0) v.name = 'fp+fn';
      }),
    });
    await writeRun(path.join(work, 'cand'), {
      runId: 'cand',
      documents: makeDocuments(120, 'slow', (i, v) => {
        if (i % 10 === 1 || i === 2) v.name = 'fp+fn';
      }),
    });
    const { code } = await docbench(['diff', 'base', 'cand', '--out', 'out']);
    expect(code).toBe(0);
    const diff = await readDiff('out');
    const f1 = diff.headline.find((m) => m.metric === 'extraction.slow.f1')!;
    expect(f1.delta).toBeLessThan(0);
    expect(f1.delta).toBeGreaterThan(-0.01);
    expect(f1.wins).toBe(12);
    expect(f1.losses).toBe(13);
    expect(f1.p_adjusted).toBeGreaterThan(0.05);
    expect(diff.flips[0]!.to_wrong).toHaveLength(13);
    expect(diff.flips[0]!.to_correct).toHaveLength(12);
  });

  it('does not call a drop significant when fewer than 6 documents differ, however alike they moved; from 6 on it does', async () => {
    // Every candidate document loses the same field: each resample gives the same Δ (SE 0), which alone
    // would read as p = 0. No test of five paired outcomes can reach 0.05: the floor is 2 · 0.5^5.
    for (const count of [5, 6]) {
      await writeRun(path.join(work, `base${count}`), {
        runId: `base${count}`,
        documents: makeDocuments(count, 'slow'),
      });
      await writeRun(path.join(work, `cand${count}`), {
        runId: `cand${count}`,
        documents: makeDocuments(count, 'slow', (_i, v) => {
          v.total = 'fp+fn';
        }),
      });
    }
    const five = await docbench(['diff', 'base5', 'cand5', '--out', 'five']);
    expect(five.code).toBe(0);
    const f1Five = (await readDiff('five')).headline.find((m) => m.metric === 'extraction.slow.f1')!;
    expect(f1Five.losses).toBe(5);
    expect(f1Five.delta).toBeLessThan(-0.05);
    expect(f1Five.p_bootstrap).toBeCloseTo(0.0625, 12);
    expect(f1Five.regression).toBe(false);
    expect(five.stdout).toContain(
      'with 5 paired documents no drop can be significant at α = 0.05: it takes at least 6 documents',
    );
    const six = await docbench(['diff', 'base6', 'cand6', '--out', 'six']);
    const f1Six = (await readDiff('six')).headline.find((m) => m.metric === 'extraction.slow.f1')!;
    expect(f1Six.p_bootstrap).toBeCloseTo(0.03125, 12);
    expect(f1Six.family).toBe('primary');
    expect(f1Six.p_adjusted).toBe(f1Six.p_bootstrap);
    expect(f1Six.regression).toBe(true);
    expect(six.code).toBe(1);
  });

  it('does not call a large drop on too few documents significant', async () => {
    await writeRun(path.join(work, 'base'), { runId: 'base', documents: makeDocuments(4, 'slow') });
    await writeRun(path.join(work, 'cand'), {
      runId: 'cand',
      documents: makeDocuments(4, 'slow', (i, v) => {
        if (i === 0) for (const k of Object.keys(v)) v[k] = 'fn';
      }),
    });
    const { code } = await docbench(['diff', 'base', 'cand', '--out', 'out']);
    expect(code).toBe(0);
    const f1 = (await readDiff('out')).headline.find((m) => m.metric === 'extraction.slow.f1')!;
    expect(f1.delta).toBeCloseTo(36 / 42 - 1, 10);
    expect(f1.delta).toBeLessThan(-0.01);
    expect(f1.p_adjusted).toBeGreaterThan(0.05);
    expect(f1.regression).toBe(false);
  });

  it('refuses runs of different datasets (exit 2) unless --allow-dataset-change, and warns about unpaired documents', async () => {
    await writeRun(path.join(work, 'base'), {
      runId: 'base',
      contentHash: 'sha256:1111',
      documents: makeDocuments(12, 'slow'),
    });
    await writeRun(path.join(work, 'cand'), {
      runId: 'cand',
      contentHash: 'sha256:2222',
      documents: makeDocuments(14, 'slow').slice(2),
    });
    const refused = await docbench(['diff', 'base', 'cand']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('different datasets');
    expect(refused.stderr).toContain('--allow-dataset-change');
    const allowed = await docbench(['diff', 'base', 'cand', '--allow-dataset-change', '--out', 'out']);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toContain('2 documents only in the baseline run');
    expect(allowed.stderr).toContain('2 documents only in the candidate run');
    const diff = await readDiff('out');
    expect(diff.documents).toEqual({
      paired: 10,
      only_in_baseline: ['doc-001', 'doc-002'],
      only_in_candidate: ['doc-013', 'doc-014'],
    });
    expect(diff.dataset_changed).toBe(true);
  });

  it('decides on field paths only with fail_on_fields', async () => {
    // Two fields regress in opposite directions in 20 of 80 documents each: the headline barely moves.
    await writeRun(path.join(work, 'base'), {
      runId: 'base',
      documents: makeDocuments(80, 'slow', (i, v) => {
        if (i % 4 === 0) v.name = 'fp+fn';
      }),
    });
    await writeRun(path.join(work, 'cand'), {
      runId: 'cand',
      documents: makeDocuments(80, 'slow', (i, v) => {
        if (i % 4 === 0) v.total = 'fp+fn';
      }),
    });
    const base = await readDiffRun(path.join(work, 'base'), 'baseline');
    const cand = await readDiffRun(path.join(work, 'cand'), 'candidate');
    const lenient = compareRuns(base, cand, { settings: { ...DEFAULT_DIFF_SETTINGS, resamples: 2000 } });
    expect(lenient.verdict).toBe('no regression');
    expect(lenient.fields.filter((f) => f.regression).map((f) => f.path)).toEqual(['total']);
    expect(lenient.fields.filter((f) => f.improvement).map((f) => f.path)).toEqual(['name']);
    const strict = compareRuns(base, cand, {
      settings: { ...DEFAULT_DIFF_SETTINGS, resamples: 2000, fail_on_fields: true },
    });
    expect(strict.verdict).toBe('regression');
    expect(strict.reasons.join(' ')).toContain('field total (slow)');
  });
});

/** Handlebars' escapes undone, to read diff.html's text. */
function decodeEntities(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Ten documents; in the candidate the first `worse` lose the value of `total`; markdown similarity, when given, unchanged. */
async function writeTenDocuments(name: string, worse: number, withMarkdown: boolean): Promise<void> {
  const extra = (i: number) => (withMarkdown ? { similarity: 0.8 + i / 100 } : {});
  await writeRun(path.join(work, name), {
    runId: name,
    documents: makeDocuments(
      10,
      'slow',
      (i, v) => {
        if (i < worse) v.total = 'fp+fn';
      },
      extra,
    ),
  });
}

describe('the regression gate on ten documents (docs/gate.md "Power")', () => {
  it('exits 1 when six are uniformly worse on the primary metric, naming the metric and the field path that lost, with or without an unchanged secondary metric', async () => {
    const primaryP: number[] = [];
    for (const withMarkdown of [true, false]) {
      const tag = withMarkdown ? 'md' : 'plain';
      await writeTenDocuments(`base-${tag}`, 0, withMarkdown);
      await writeTenDocuments(`cand-${tag}`, 6, withMarkdown);
      const { code, stdout } = await docbench(['diff', `base-${tag}`, `cand-${tag}`, '--out', `out-${tag}`]);
      expect(code).toBe(1);
      const diff = await readDiff(`out-${tag}`);
      expect(diff.headline.map((m) => m.metric)).toEqual([
        'extraction.slow.f1',
        'extraction.slow.exact_match_rate',
        ...(withMarkdown ? ['markdown.similarity'] : []),
      ]);
      const f1 = diff.headline[0]!;
      expect([f1.family, f1.losses, f1.wins, f1.regression]).toEqual(['primary', 6, 0, true]);
      primaryP.push(f1.p_adjusted);
      if (withMarkdown) expect(diff.headline[2]!.p_bootstrap).toBe(1);
      // The terminal names the metric and the field path that lost.
      expect(stdout).toContain('REGRESSION');
      expect(stdout).toMatch(
        /✗ Field F1 \(slow, normalised, micro\) dropped −0\.\d+ .*the primary metric, decided alone/,
      );
      expect(stdout).toMatch(/field paths that lost: total \(slow, −0\.\d+ on 10 documents/);
      const md = await readFile(path.join(work, `out-${tag}`, 'diff.md'), 'utf8');
      expect(md).toContain('**❌ Regression**');
      expect(md).toMatch(/\| Field F1 \(slow, normalised, micro\) \(primary\) \|.*\| ❌ regression \|/);
      expect(md).toContain('Field paths that lost: total (slow');
      const html = await readFile(path.join(work, `out-${tag}`, 'diff.html'), 'utf8');
      expect(html).toContain('<strong>Regression</strong>');
      expect(html).toContain('Field paths that lost: total (slow');
    }
    // An unchanged secondary metric, added or removed, leaves the primary metric's p as it was.
    expect(primaryP[0]).toBe(primaryP[1]);
    expect(primaryP[0]).toBeCloseTo(0.03125, 12);
  });

  it('exits 0 on an identical rerun, and on five uniformly worse documents, saying what could not be found', async () => {
    await writeTenDocuments('base', 0, true);
    await writeTenDocuments('rerun', 0, true);
    await writeTenDocuments('five', 5, true);
    const rerun = await docbench(['diff', 'base', 'rerun', '--out', 'rerun-out']);
    expect(rerun.code).toBe(0);
    expect((await readDiff('rerun-out')).headline.every((m) => m.p_adjusted === 1 && !m.significant)).toBe(true);
    const five = await docbench(['diff', 'base', 'five', '--out', 'five-out']);
    expect(five.code).toBe(0);
    const diff = await readDiff('five-out');
    const f1 = diff.headline[0]!;
    expect([f1.losses, f1.p_adjusted, f1.significant, f1.regression]).toEqual([5, 0.0625, false, false]);
    const note =
      'with 10 paired documents, a drop on fewer than 6 of them cannot be significant at α = 0.05 (the smallest p 5 documents can give is 0.0625)';
    expect(diff.power_note).toContain(note);
    for (const output of [
      five.stdout,
      await readFile(path.join(work, 'five-out', 'diff.md'), 'utf8'),
      decodeEntities(await readFile(path.join(work, 'five-out', 'diff.html'), 'utf8')),
    ]) {
      expect(output).toContain(note);
      expect(output).not.toMatch(/REGRESSION|❌|<strong>Regression</);
    }
    // Every statement about significance in the outputs is the decision diff.json records.
    const md = await readFile(path.join(work, 'five-out', 'diff.md'), 'utf8');
    expect(md).toMatch(/\| Field F1 \(slow, normalised, micro\) \(primary\) \|.*\| not significant \|/);
  });

  it('takes the primary metric from gate.diff.primary or --primary, and refuses one the runs lack (exit 2)', async () => {
    await writeTenDocuments('base', 0, true);
    await writeTenDocuments('cand', 6, true);
    const byFlag = await docbench(['diff', 'base', 'cand', '--out', 'flag', '--primary', 'markdown.similarity']);
    const diff = await readDiff('flag');
    expect(diff.settings.primary).toBe('markdown.similarity');
    expect(diff.headline.find((m) => m.family === 'primary')!.metric).toBe('markdown.similarity');
    // Field F1 and exact match are now Holm-adjusted together: 2 × 0.03125 = 0.0625, not significant.
    expect(diff.headline[0]!.p_adjusted).toBeCloseTo(0.0625, 12);
    expect(byFlag.code).toBe(0);
    const missing = await docbench(['diff', 'base', 'cand', '--primary', 'extraction.fast.f1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('gate.diff.primary: "extraction.fast.f1" was not computed for these runs');
    const typo = await docbench(['diff', 'base', 'cand', '--primary', 'f1']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--primary');
  });
});

describe('diff helpers', () => {
  it('collapses indices of field paths', () => {
    expect(collapseFieldPath('codes[12].modifiers[0]')).toBe('codes[].modifiers[]');
    expect(collapseFieldPath('billing.total')).toBe('billing.total');
  });

  it('turns the bootstrap standard error into a two-sided p, floored at the sign test of the documents that differ', () => {
    expect(bootstrapP({ n: 10, delta: 0, standardError: 0, wins: 0, losses: 0 })).toBe(1);
    // Every resample moved the same way: as strong as the outcomes allow, 2 · 0.5^10, not 0.
    expect(bootstrapP({ n: 10, delta: -0.1, standardError: 0, wins: 0, losses: 10 })).toBeCloseTo(2 / 1024, 12);
    expect(bootstrapP({ n: 1, delta: -0.5, standardError: 0, wins: 0, losses: 1 })).toBe(1);
    // z = 1.959964 → p = 0.05, far above the floor of 40 differing documents.
    expect(bootstrapP({ n: 50, delta: -0.0979982, standardError: 0.05, wins: 10, losses: 30 })).toBeCloseTo(0.05, 5);
    // Five documents that all dropped: z = 10 would say p ≈ 0, but no test of five outcomes reaches 0.05.
    expect(bootstrapP({ n: 5, delta: -0.5, standardError: 0.05, wins: 0, losses: 5 })).toBeCloseTo(0.0625, 12);
    expect(bootstrapP({ n: 8, delta: -0.5, standardError: 0.05, wins: 0, losses: 6 })).toBeCloseTo(0.03125, 12);
  });
});
