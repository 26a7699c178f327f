/**
 * The compact scores a run keeps per document for its statistics (src/evaluate/kept-scores.ts) give every
 * figure the full scores give: a system's summary blocks and the comparisons between systems.
 */
import { describe, expect, it } from 'vitest';
import { scoreDocument, readComparePages, type PlannedSlot } from '../../src/evaluate/score-document.js';
import { createScoreKeeper, type DocumentScores } from '../../src/evaluate/kept-scores.js';
import { aggregateSystem } from '../../src/evaluate/aggregate.js';
import { compareRunSystems } from '../../src/evaluate/compare-run-systems.js';
import { createInterner, type CallRecord } from '../../src/run-dir/index.js';
import type { JsonObject, JsonSchema } from '../../src/types.js';

const SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    number: { type: 'string' },
    total: { type: 'number' },
    notes: { type: 'string' },
    items: {
      type: 'array',
      items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } },
    },
  },
};
const OPTIONS = { schema: SCHEMA, comparators: {}, locale: 'US' as const };
const PLANNED: PlannedSlot[] = [
  { endpoint: 'extract', mode: 'fast' },
  { endpoint: 'compare', mode: null },
];
const LONG_NOTE = 'Delivered to the loading dock on the north side of the building, signed by the night shift.';

function record(system: string, id: string, fields: Record<string, unknown>): CallRecord {
  const common = {
    v: 2,
    system,
    document_id: id,
    repeat: 0,
    status: 'ok',
    attempts: 1,
    latency_ms: 100 + id.length,
    last_attempt_ms: 100,
    started_at: '2026-11-27T00:00:00Z',
    from_cache: false,
  };
  return { ...common, ...fields } as CallRecord;
}

function answers(system: string, id: string, data: JsonObject, pages: string[]): CallRecord[] {
  return [
    record(system, id, {
      key: `${system}|${id}|extract|fast|0`,
      endpoint: 'extract',
      mode: 'fast',
      result: {
        data,
        responseForm: 'object',
        method: null,
        pagesProcessed: null,
        confidence: 0.9,
        confidenceScale: null,
      },
    }),
    record(system, id, {
      key: `${system}|${id}|compare|-|0`,
      endpoint: 'compare',
      mode: null,
      result: {
        success: true,
        pages: pages.map((content) => ({ content, width: null, height: null })),
        dashboardUrl: null,
        comparisonId: null,
        failedPages: 0,
        failedPageList: [],
      },
    }),
  ];
}

/** Documents where the two systems differ: wrong and missing fields, line items, free text, a missing page. */
function scoreRun(): [DocumentScores[], DocumentScores[]] {
  const full: DocumentScores[] = [];
  const kept: DocumentScores[] = [];
  const keeper = createScoreKeeper(createInterner());
  for (let i = 0; i < 12; i++) {
    const id = `doc-${i}`;
    const items = [
      { description: 'Lab panel', amount: i },
      { description: 'Vaccine', amount: 2 * i },
    ];
    const truthJson: JsonObject = { number: `N-${i}`, total: 10 + i, notes: LONG_NOTE, items };
    const truth = { json: truthJson, markdown: [`# Invoice N-${i}\n\nTotal ${10 + i}`, 'Page two'] };
    const incumbent = answers('incumbent', id, { ...truthJson, total: i % 3 === 0 ? 99 : 10 + i }, [
      `# Invoice N-${i}\n\nTotal ${10 + i}`,
      ...(i % 4 === 0 ? [] : ['Page two']),
    ]);
    const candidate = answers(
      'candidate',
      id,
      { number: `N-${i}`, notes: i % 2 === 0 ? LONG_NOTE : 'Delivered to the dock', items },
      [`# INVOICE N-${i}\n\nTotal ${10 + i}`, 'Page 2'],
    );
    const reference = scoreDocument(PLANNED, incumbent, truth, null, OPTIONS);
    const other = scoreDocument(PLANNED, candidate, truth, readComparePages(incumbent), OPTIONS);
    const tags = { tier: i % 2 === 0 ? 'fax' : 'scan' };
    full.push({
      document_id: id,
      tags,
      systems: new Map([
        ['incumbent', reference],
        ['candidate', other],
      ]),
    });
    kept.push({
      document_id: id,
      tags,
      systems: new Map([
        ['incumbent', keeper.keep(reference)],
        ['candidate', keeper.keep(other)],
      ]),
    });
  }
  return [full, kept];
}

describe('kept scores', () => {
  const [full, kept] = scoreRun();

  it('give each system the summary the full scores give', () => {
    for (const system of ['incumbent', 'candidate']) {
      const of = (documents: DocumentScores[]) =>
        documents.map((d) => ({ tags: d.tags, scores: d.systems.get(system)! }));
      expect(aggregateSystem('stored', of(kept), [], ['fast'], 0.95)).toEqual(
        aggregateSystem('stored', of(full), [], ['fast'], 0.95),
      );
    }
  });

  it('give the comparisons between systems the full scores give', () => {
    const names = ['incumbent', 'candidate'];
    expect(compareRunSystems(kept, names, 'incumbent', ['fast'], 1)).toEqual(
      compareRunSystems(full, names, 'incumbent', ['fast'], 1),
    );
  });

  it('share one object per distinct field verdict across documents, and keep no values', () => {
    const fields = kept.map((d) => d.systems.get('incumbent')!.extraction.fast!.score.fields);
    const numberField = (list: (typeof fields)[number]) => list.find((f) => f.path === 'number')!;
    expect(numberField(fields[0]!)).toBe(numberField(fields[1]!));
    expect(fields.flat().every((f) => !('truth' in f) && !('prediction' in f))).toBe(true);
  });
});
