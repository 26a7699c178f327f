/**
 * `docbench dataset import sroie`: the fixture in SROIE's published layout (test/fixtures/import/sroie/README.md)
 * imported, validated and scored through a stored system, every figure computed by hand here.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairedBootstrap } from '../../src/score/index.js';
import { runCli } from '../helpers/cli.js';
import { f1, FIXTURES, normalisedLength, readJson, roundTrip } from './import-round-trip.js';

const SOURCE = path.join(FIXTURES, 'sroie');
const FIRST = 'X51000000001';
const SECOND = 'X51000000002';
const THIRD = 'X51000000003';

/** The texts of a box file's lines, read by hand: eight numbers, then everything after the eighth comma. */
async function boxTexts(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8')).split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.map((line) => line.split(',').slice(8).join(','));
}

describe('dataset import sroie', () => {
  it('imports the published layout: truth = key files, markdown = every box line in order, a region per line; scored by hand', async () => {
    const key = (id: string, split: string) => readJson(path.join(SOURCE, split, 'key', `${id}.json`));
    const second = (await key(SECOND, 'train')) as Record<string, string>;
    const third = (await key(THIRD, 'test')) as Record<string, string>;
    const firstMarkdown = `${(await boxTexts(path.join(SOURCE, 'train', 'box', `${FIRST}.csv`))).join('\n')}\n`;
    const secondLines = await boxTexts(path.join(SOURCE, 'train', 'box', `${SECOND}.csv`));
    const { work, dataset, imported, summary } = await roundTrip('sroie', SOURCE, {
      // All four keys right.
      [`${FIRST}.json`]: JSON.stringify(await key(FIRST, 'train')),
      // Total wrong, address missing: 2 TP, 1 FP, 2 FN.
      [`${SECOND}.json`]: JSON.stringify({ company: second.company, date: second.date, total: '33.00' }),
      // Date missing: 3 TP, 1 FN.
      [`${THIRD}.json`]: JSON.stringify({ company: third.company, address: third.address, total: third.total }),
      [`${FIRST}.md`]: firstMarkdown,
      // The last line left out.
      [`${SECOND}.md`]: `${secondLines.slice(0, -1).join('\n')}\n`,
      'not-a-document.json': '{}',
    });
    expect(imported.stdout + imported.stderr).toContain('imported 3 documents');
    expect(imported.stdout + imported.stderr).toContain('skipped 1 (X51000000099: no box or key file)');
    expect(imported.stdout + imported.stderr).toContain(
      'stored system team: 5 files (1 naming no imported document, left out)',
    );

    for (const [id, split] of [
      [FIRST, 'train'],
      [SECOND, 'train'],
      [THIRD, 'test'],
    ] as const) {
      expect(await readJson(path.join(dataset, 'truth', `${id}.json`))).toEqual(await key(id, split));
      const texts = await boxTexts(path.join(SOURCE, split, 'box', `${id}.csv`));
      expect(await readFile(path.join(dataset, 'truth', `${id}.md`), 'utf8')).toBe(`${texts.join('\n')}\n`);
      const regions = (await readJson(path.join(dataset, 'truth', `${id}.regions.json`))) as {
        bounding_boxes: { content: string }[];
      }[];
      expect(regions[0]!.bounding_boxes.map((box) => box.content)).toEqual(texts);
    }
    // The first box line, 79,70 … 601,90 in pixels of a 200 dpi image, in inches; the page 680 × 710 px in points.
    const regions = (await readJson(path.join(dataset, 'truth', `${FIRST}.regions.json`))) as {
      width: number;
      height: number;
      bounding_boxes: { bounding_box: unknown }[];
    }[];
    expect(regions[0]).toMatchObject({ page: 1, width: (680 * 72) / 200, height: (710 * 72) / 200 });
    expect(regions[0]!.bounding_boxes[0]!.bounding_box).toEqual({
      min_x: 0.395,
      min_y: 0.35,
      max_x: 3.005,
      max_y: 0.45,
    });
    expect(await readdir(path.join(dataset, 'documents'))).toEqual([`${FIRST}.jpg`, `${SECOND}.jpg`, `${THIRD}.jpg`]);
    expect(await readFile(path.join(dataset, 'README.md'), 'utf8')).toMatch(/Licence:[\s\S]*X51000000099/);

    const team = summary.systems.team!;
    const extraction = (team.extraction as Record<string, Record<string, number>>).slow!;
    expect(extraction).toMatchObject({ tp: 9, fp: 1, fn: 3, documents: 3 });
    expect(extraction.f1).toBeCloseTo(f1(9, 1, 3), 12);
    expect(extraction.exact_match_rate).toBeCloseTo(1 / 3, 12);
    // One line of the second receipt missing: its normalised characters are the only edits.
    const firstLength = normalisedLength(firstMarkdown);
    const secondLength = normalisedLength(secondLines.join('\n'));
    const similarity = 1 - normalisedLength(secondLines.at(-1)!) / (firstLength + secondLength);
    expect((team.markdown as { similarity: number }).similarity).toBeCloseTo(similarity, 12);
    expect(team.by_tag.split!.train).toMatchObject({ documents: 2 });
    expect(team.by_tag.split!.train!.extraction_f1.slow).toBeCloseTo(f1(6, 1, 2), 12);
    expect(team.by_tag.split!.test!.extraction_f1.slow).toBeCloseTo(f1(3, 0, 1), 12);
    expect(team.by_tag.split!.test!.similarity).toBeNull();

    // Each tag's figure carries its bootstrap interval: micro F1 over resampled train receipts, from their counts.
    const trainCounts = [
      { tp: 4, fp: 0, fn: 0 },
      { tp: 2, fp: 1, fn: 2 },
    ];
    const expected = pairedBootstrap(2, (indices) => {
      const sum = { tp: 0, fp: 0, fn: 0 };
      for (const index of indices) {
        sum.tp += trainCounts[index]!.tp;
        sum.fp += trainCounts[index]!.fp;
        sum.fn += trainCounts[index]!.fn;
      }
      return f1(sum.tp, sum.fp, sum.fn);
    });
    const ci95 = team.by_tag.split!.train!.ci95!;
    expect(ci95.extraction_f1.slow![0]).toBeCloseTo(expected.interval[0], 12);
    expect(ci95.extraction_f1.slow![1]).toBeCloseTo(expected.interval[1], 12);
    expect(ci95.similarity).not.toBeNull();
    const report = await readFile(path.join(work, 'run', 'report.html'), 'utf8');
    const [lo, hi] = expected.interval.map((value) => `${(value * 100).toFixed(1)}%`);
    expect(report).toContain(`${lo} – ${hi} · 2 documents`);
  });

  it('runs end to end with the local engine on the imported receipts', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'docbench-import-sroie-local-'));
    const dataset = path.join(work, 'sroie');
    expect((await runCli(['dataset', 'import', 'sroie', SOURCE, '--out', dataset, '--split', 'test'], work)).code).toBe(
      0,
    );
    const run = await runCli(
      [
        'run',
        '--dataset',
        dataset,
        '--out',
        path.join(work, 'run'),
        '--endpoints',
        'extract,compare',
        '--no-cache',
        '--quiet',
      ],
      work,
    );
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(await readFile(path.join(work, 'run', 'summary.json'), 'utf8'));
    const local = summary.systems.local;
    expect(local.documents).toEqual({ total: 1, succeeded: 1, failed: 0 });
    expect(local.extraction.slow.documents).toBe(1);
    // The engine reads the receipt's printed text: most of the truth markdown is found.
    expect(local.markdown.similarity).toBeGreaterThan(0.5);
  }, 120_000);

  it('reads the challenge layout of .jpg/.txt pairs: a .txt of box lines gives markdown, one of keys the truth', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'docbench-import-sroie-pairs-'));
    const result = await runCli(
      ['dataset', 'import', 'sroie', path.join(FIXTURES, 'sroie-pairs'), '--out', 'out'],
      work,
    );
    expect(result.code, result.stderr).toBe(0);
    const truth = (name: string) => path.join(work, 'out', 'truth', name);
    expect(existsSync(truth(`${FIRST}.md`))).toBe(true);
    expect(existsSync(truth(`${FIRST}.json`))).toBe(false);
    expect(existsSync(truth(`${SECOND}.md`))).toBe(false);
    expect(await readJson(truth(`${SECOND}.json`))).toEqual(
      await readJson(path.join(SOURCE, 'train', 'key', `${SECOND}.json`)),
    );
  });

  it('--as incumbent puts the predictions in baseline/, which a run reads without configuration; --as must be a system name', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'docbench-import-sroie-incumbent-'));
    await mkdir(path.join(work, 'ours'));
    await writeFile(path.join(work, 'ours', `${FIRST}.json`), '{"total": "36.20"}');
    await writeFile(path.join(work, 'ours', `${FIRST}.md`), 'TOTAL 36.20\n');
    const args = ['dataset', 'import', 'sroie', SOURCE, '--predictions', 'ours'];
    const imported = await runCli([...args, '--out', 'a', '--as', 'incumbent'], work);
    expect(imported.code, imported.stderr).toBe(0);
    expect((await readdir(path.join(work, 'a', 'baseline'))).sort()).toEqual([`${FIRST}.json`, `${FIRST}.md`]);
    const refused = await runCli([...args, '--out', 'b', '--as', 'Our System'], work);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--as Our System: not a system name');
    expect(existsSync(path.join(work, 'b'))).toBe(false);
  });

  it('--limit draws documents with the seed; --split reads one folder and tags it', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'docbench-import-sroie-limit-'));
    const limited = await runCli(
      ['dataset', 'import', 'sroie', SOURCE, '--out', 'a', '--limit', '2', '--seed', '3'],
      work,
    );
    expect(limited.code, limited.stderr).toBe(0);
    expect(await readdir(path.join(work, 'a', 'documents'))).toHaveLength(2);
    const again = await runCli(
      ['dataset', 'import', 'sroie', SOURCE, '--out', 'b', '--limit', '2', '--seed', '3'],
      work,
    );
    expect(again.code).toBe(0);
    expect(await readdir(path.join(work, 'b', 'documents'))).toEqual(await readdir(path.join(work, 'a', 'documents')));
    const split = await runCli(['dataset', 'import', 'sroie', SOURCE, '--out', 'c', '--split', 'test'], work);
    expect(split.code, split.stderr).toBe(0);
    const manifest = (await readJson(path.join(work, 'c', 'dataset.json'))) as {
      documents: { id: string; tags: unknown }[];
    };
    expect(manifest.documents).toEqual([
      { id: THIRD, file: `documents/${THIRD}.jpg`, tags: { source: 'sroie', language: 'en', split: 'test' } },
    ]);
  });

  it('refuses a non-empty folder without --force, and a malformed box line with exit 2 naming file and line, writing nothing', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'docbench-import-sroie-bad-'));
    const first = await runCli(['dataset', 'import', 'sroie', SOURCE, '--out', 'out'], work);
    expect(first.code).toBe(0);
    const again = await runCli(['dataset', 'import', 'sroie', SOURCE, '--out', 'out'], work);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('not empty');

    const broken = path.join(work, 'broken');
    await cp(SOURCE, broken, { recursive: true });
    const box = path.join(broken, 'train', 'box', `${SECOND}.csv`);
    await writeFile(box, `${await readFile(box, 'utf8')}12,30,oops,40,50,60,70,80,TOTAL\r\n`);
    const failed = await runCli(['dataset', 'import', 'sroie', broken, '--out', 'out', '--force'], work);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`${box}: line 15, coordinate 3: "oops" is not a number`);
    // The earlier import is untouched and no staging folder is left.
    expect(await readdir(path.join(work, 'out', 'documents'))).toHaveLength(3);
    expect((await readdir(work)).sort()).toEqual(['broken', 'out']);
  });
});
