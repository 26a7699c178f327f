/**
 * A small run of two stored systems on documents with two tags: summary.md prints each figure of summary.json's
 * by_tag with its 95% interval and the documents it is over, and tags.csv holds the same bounds, as stored
 * (nothing recomputed).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPercent, formatPercentInterval, roundForCsv } from '../../src/render/index.js';
import type { RunSummary, TagBreakdown } from '../../src/run-dir/index.js';
import { runStoredSystems, writeStoredDataset } from '../helpers/stored-dataset.js';
import { readCsvRecords } from './csv-parse.js';

const COUNT = 12;
/** Two tags: `tier` splits the documents in halves, `language` leaves three German ones (a small n). */
function tagsOf(index: number): Record<string, string> {
  return { tier: index % 2 === 0 ? 'digital' : 'fax', language: index < COUNT - 3 ? 'english' : 'german' };
}

let tmp: string;
let run: string;
let summary: RunSummary;
let markdown: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-tag-intervals-'));
  const dataset = path.join(tmp, 'dataset');
  await writeStoredDataset(dataset, COUNT);
  const documents = Array.from({ length: COUNT }, (_, i) => {
    const id = `doc-${String(i + 1).padStart(6, '0')}`;
    return { id, file: `documents/${id}.pdf`, tags: tagsOf(i) };
  });
  await writeFile(path.join(dataset, 'dataset.json'), JSON.stringify({ name: 'tagged', locale: 'US', documents }));
  run = path.join(tmp, 'run');
  await runStoredSystems(dataset, 'extract,compare', run, tmp);
  summary = JSON.parse(await readFile(path.join(run, 'summary.json'), 'utf8')) as RunSummary;
  markdown = await readFile(path.join(run, 'summary.md'), 'utf8');
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Every (system, tag key, tag value, breakdown) of summary.json's by_tag. */
function breakdowns(): [string, string, string, TagBreakdown][] {
  return Object.entries(summary.systems).flatMap(([system, s]) =>
    Object.entries(s.by_tag).flatMap(([key, values]) =>
      Object.entries(values).map(([value, b]) => [system, key, value, b] as [string, string, string, TagBreakdown]),
    ),
  );
}

/** summary.md's table of one tag key: its header cells and each row's cells by tag value. */
function markdownTable(key: string): { header: string[]; rows: Map<string, string[]> } {
  const section = markdown.split(`### ${key}\n\n`)[1]!.split('\n\n')[0]!;
  const [header, , ...rows] = section.split('\n').map((line) => line.slice(2, -2).split(' | '));
  return { header: header!, rows: new Map(rows.map((cells) => [cells[0]!, cells])) };
}

describe('by-tag figures with their intervals', () => {
  it('summary.json holds every tag value of both tags, for both systems, each figure with an interval', () => {
    expect(Object.keys(summary.systems).sort()).toEqual(['candidate', 'incumbent']);
    const found = breakdowns();
    expect(found.map(([system, key, value]) => `${system} ${key}=${value}`).sort()).toEqual([
      'candidate language=english',
      'candidate language=german',
      'candidate tier=digital',
      'candidate tier=fax',
      'incumbent language=english',
      'incumbent language=german',
      'incumbent tier=digital',
      'incumbent tier=fax',
    ]);
    for (const [, , , b] of found) {
      expect(b.ci95?.extraction_f1.slow).toHaveLength(2);
      expect(b.ci95?.exact_match_rate.slow).toHaveLength(2);
      expect(b.ci95?.similarity).toHaveLength(2);
    }
  });

  it("summary.md shows each tag's figures with summary.json's by_tag intervals and the documents they are over", () => {
    expect(markdown).toContain('## By tag');
    for (const key of ['tier', 'language']) {
      const table = markdownTable(key);
      expect(table.header).toEqual([
        key,
        'Documents',
        'Failed',
        'F1 slow · incumbent',
        'F1 slow · candidate',
        'Similarity · incumbent',
        'Similarity · candidate',
      ]);
      for (const [system, tagKey, value, b] of breakdowns()) {
        if (tagKey !== key) continue;
        const row = table.rows.get(value)!;
        expect(row[1]).toBe(String(b.documents));
        const documents = `${b.documents} document${b.documents === 1 ? '' : 's'}`;
        const f1 = `${formatPercent(b.extraction_f1.slow)} (${formatPercentInterval(b.ci95!.extraction_f1.slow!)}, ${documents})`;
        const similarity = `${formatPercent(b.similarity)} (${formatPercentInterval(b.ci95!.similarity!)}, ${documents})`;
        expect(row[table.header.indexOf(`F1 slow · ${system}`)]).toBe(f1);
        expect(row[table.header.indexOf(`Similarity · ${system}`)]).toBe(similarity);
      }
    }
    // The three German documents: their count stands beside each interval.
    expect(markdownTable('language').rows.get('german')![3]).toMatch(/, 3 documents\)$/);
  });

  it('tags.csv has a row per tag key, value and system holding summary.json by_tag figures and interval bounds', async () => {
    const tagsCsv = await readFile(path.join(run, 'tags.csv'), 'utf8');
    const header = tagsCsv.split('\n')[0];
    expect(header).toBe(
      'system,tag_key,tag_value,documents,failed,f1_slow,f1_slow_ci95_lo,f1_slow_ci95_hi,exact_match_slow,exact_match_slow_ci95_lo,exact_match_slow_ci95_hi,similarity,similarity_ci95_lo,similarity_ci95_hi',
    );
    const records = readCsvRecords(tagsCsv);
    // By tag key and value, then the systems in the run's order: the two systems of a tier side by side.
    expect(records.map((r) => `${r.tag_key}=${r.tag_value} ${r.system}`)).toEqual([
      'language=english incumbent',
      'language=english candidate',
      'language=german incumbent',
      'language=german candidate',
      'tier=digital incumbent',
      'tier=digital candidate',
      'tier=fax incumbent',
      'tier=fax candidate',
    ]);
    const cell = (value: number | null | undefined) => String(roundForCsv(value));
    for (const [system, key, value, b] of breakdowns()) {
      const row = records.find((r) => r.system === system && r.tag_key === key && r.tag_value === value)!;
      expect(row).toEqual({
        system,
        tag_key: key,
        tag_value: value,
        documents: String(b.documents),
        failed: String(b.failed),
        f1_slow: cell(b.extraction_f1.slow),
        f1_slow_ci95_lo: cell(b.ci95!.extraction_f1.slow![0]),
        f1_slow_ci95_hi: cell(b.ci95!.extraction_f1.slow![1]),
        exact_match_slow: cell(b.exact_match_rate.slow),
        exact_match_slow_ci95_lo: cell(b.ci95!.exact_match_rate.slow![0]),
        exact_match_slow_ci95_hi: cell(b.ci95!.exact_match_rate.slow![1]),
        similarity: cell(b.similarity),
        similarity_ci95_lo: cell(b.ci95!.similarity![0]),
        similarity_ci95_hi: cell(b.ci95!.similarity![1]),
      });
    }
  });
});
