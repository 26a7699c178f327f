/**
 * olmOCR-bench's own sample (shared reference data, read by path): imported as a dataset and run with its tool
 * folder as a stored system, it must give the figures olmOCR-bench's code gives on it, math left out
 * (../shared/reference/README.md): dataset 76/87, blanks 1/1, baseline 19/20, macro mean 0.9412.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const SAMPLE = path.resolve(ROOT, '..', 'shared', 'reference', 'olmocr-bench', 'olmocr', 'bench', 'sample_data');

describe('olmOCR-bench sample imported and run', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docbench-olmocr-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('imports, validates without schema.json, and reproduces the per-category pass rates', async () => {
    const dataset = path.join(dir, 'dataset');
    const imported = await runCli(['dataset', 'import', 'olmocr-bench', SAMPLE, '--out', dataset], dir);
    expect(imported.code, imported.stderr).toBe(0);
    const validated = await runCli(['dataset', 'validate', dataset], dir);
    expect(validated.code, validated.stderr + validated.stdout).toBe(0);

    await writeFile(
      path.join(dir, 'docbench.config.json'),
      JSON.stringify({ systems: { olmocr_pipeline: { kind: 'stored' } } }),
    );
    const out = path.join(dir, 'run');
    const run = await runCli(['run', '--dataset', dataset, '--endpoints', 'compare', '--out', out], dir);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8'));
    const checks = summary.systems.olmocr_pipeline.checks;
    expect(checks.by_category).toEqual({
      dataset: { total: 87, passed: 76, pass_rate: 76 / 87 },
      blanks: { total: 1, passed: 1, pass_rate: 1 },
      baseline: { total: 20, passed: 19, pass_rate: 0.95 },
    });
    expect(checks.macro_pass_rate).toBeCloseTo(0.9412, 4);
    expect(checks.unsupported.by_type).toEqual({ math: 12 });

    // every report carries them: a pass rate per document, a JUnit failure per failed check, summary.md's table
    const csv = await readFile(path.join(out, 'documents.csv'), 'utf8');
    expect(csv.split('\n')[0]).toContain('check_pass_rate,checks_passed,checks_total');
    const [header, ...lines] = csv.trim().split('\n');
    const columns = header!.split(',');
    const row = lines.map((line) => line.split(',')).find((cells) => cells[0] === 'buildingnotes')!;
    const cell = (name: string) => row[columns.indexOf(name)];
    expect([cell('system'), cell('check_pass_rate'), cell('checks_passed'), cell('checks_total')]).toEqual([
      'olmocr_pipeline',
      '0.75',
      '3',
      '4',
    ]);
    const junit = await readFile(path.join(out, 'junit.xml'), 'utf8');
    expect(junit.match(/type="check-failed"/g)).toHaveLength(108 - 96);
    expect(junit.match(/<skipped /g)).toHaveLength(12);
    expect(junit).toContain('name="checks · olmocr_pipeline" tests="120" failures="12"');
    const markdown = await readFile(path.join(out, 'summary.md'), 'utf8');
    expect(markdown).toContain('| olmocr\\_pipeline | 94.1% |');
    const html = await readFile(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('<section id="checks">');
    expect(html).toMatch(/href="drilldown\/part-\d+\.html#buildingnotes-[0-9a-f]+-check-building_notes_02"/);
  });

  it('gates on the macro pass rate, a category and a type', async () => {
    const dataset = path.join(dir, 'dataset');
    await writeFile(
      path.join(dir, 'docbench.config.json'),
      JSON.stringify({
        systems: { olmocr_pipeline: { kind: 'stored' } },
        gate: {
          min_check_pass_rate: 0.9,
          check_categories: { dataset: { min_pass_rate: 0.9 } },
          check_types: { absent: { min_pass_rate: 0.9 } },
        },
      }),
    );
    const out = path.join(dir, 'gated');
    const run = await runCli(['run', '--dataset', dataset, '--endpoints', 'compare', '--out', out], dir);
    expect(run.code).toBe(1);
    const gate = JSON.parse(await readFile(path.join(out, 'gate.json'), 'utf8'));
    const verdicts = Object.fromEntries(
      gate.checks.map((c: { metric: string; passed: boolean }) => [c.metric, c.passed]),
    );
    expect(verdicts).toMatchObject({
      'checks.macro_pass_rate': true,
      'checks.by_category.dataset.pass_rate': false,
      'checks.by_type.absent.pass_rate': true,
    });
  });

  it('docbench diff compares the macro pass rate, paired by document', async () => {
    const dataset = path.join(dir, 'dataset');
    await writeFile(
      path.join(dir, 'docbench.config.json'),
      JSON.stringify({ systems: { olmocr_pipeline: { kind: 'stored' } } }),
    );
    // a worse pipeline: two documents' outputs lost
    for (const id of ['earnings', 'olmo2-pg4'])
      await writeFile(path.join(dataset, 'outputs', 'olmocr_pipeline', `${id}.md`), 'nothing');
    const worse = path.join(dir, 'worse');
    expect((await runCli(['run', '--dataset', dataset, '--endpoints', 'compare', '--out', worse], dir)).code).toBe(0);
    const diff = await runCli(['diff', path.join(dir, 'run'), worse, '--allow-dataset-change'], dir);
    expect(diff.code, diff.stderr).toBe(0);
    const result = JSON.parse(await readFile(path.join(worse, 'diff', 'diff.json'), 'utf8'));
    const row = result.headline.find((m: { metric: string }) => m.metric === 'checks.macro_pass_rate');
    expect(row.baseline).toBeCloseTo(0.9412, 4);
    expect(row.candidate).toBeLessThan(row.baseline);
    expect(row.losses).toBe(2);
  });

  it('sets two systems against each other on the macro pass rate, as every headline metric', async () => {
    const dataset = path.join(dir, 'dataset');
    await cp(path.join(dataset, 'outputs', 'olmocr_pipeline'), path.join(dataset, 'outputs', 'blanker'), {
      recursive: true,
    });
    for (const id of ['lincoln_letter', 'mattsnotes', 'buildingnotes'])
      await writeFile(path.join(dataset, 'outputs', 'blanker', `${id}.md`), '');
    await writeFile(
      path.join(dir, 'docbench.config.json'),
      JSON.stringify({ systems: { olmocr_pipeline: { kind: 'stored' }, blanker: { kind: 'stored' } } }),
    );
    const out = path.join(dir, 'two');
    const run = await runCli(
      ['run', '--dataset', dataset, '--endpoints', 'compare', '--out', out, '--reference', 'olmocr_pipeline'],
      dir,
    );
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8'));
    const row = summary.comparisons.find(
      (c: { system: string; metric: string }) => c.system === 'blanker' && c.metric === 'checks.macro_pass_rate',
    );
    expect(row.delta).toBeLessThan(0);
    expect(row.losses).toBe(3);
    expect(summary.systems.blanker.checks.macro_pass_rate).toBeLessThan(
      summary.systems.olmocr_pipeline.checks.macro_pass_rate,
    );
  });
});
