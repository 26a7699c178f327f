/**
 * `textract` on answers AWS's own project recorded from the real service (test/fixtures/recordings/textract/),
 * replayed from a server on 127.0.0.1. What must survive is computed from each answer's blocks, not written
 * by hand: every LINE's words once (recall and precision ≥ 0.99, each line outside a table in its order),
 * one markdown table per TABLE with its grid and cell words (merged cells in their first cell), a ☒/☐ per
 * SELECTION_ELEMENT, one region per LINE inside its page; and FORMS key-value pairs and QUERIES mapped onto
 * a schema.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { textractKind } from '../../../src/systems/kinds/textract.js';
import type { CompareResult, ExtractResult, SplitResult } from '../../../src/service/types.js';
import type { OperationRequest } from '../../../src/systems/types.js';
import { scoreWords, tokenizeWords } from '../../../src/score/markdown/words.js';
import { findTables } from '../../../src/score/tables/find-tables.js';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import {
  compareRequest,
  createSystem,
  extractRequest,
  makeCall,
  makeContext,
  ONE_PAGE,
  sendJson,
  splitRequest,
} from './context.js';
import {
  blocksOf,
  loadRecordings,
  recordedLineWords,
  recordedTables,
  withoutBlocks,
  withoutLayout,
  withoutTables,
  type RecordedBlock,
  type Recording,
} from './textract-recordings.js';

const ENV = {
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE123456',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  AWS_REGION: 'eu-west-1',
};
const recordings = loadRecordings();
const analyzed = recordings.filter((r) => r.name.includes('.analyze-'));
const detected = recordings.filter((r) => r.name.includes('.detect-document-text'));

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Replays `body` for every request; returns the outcome of one call and the X-Amz-Target and body sent. */
async function replay(body: unknown, options: Record<string, unknown>, request: OperationRequest) {
  server = await startHttpServer((_request, response) => sendJson(response, 200, body));
  const system = await createSystem(textractKind, 'aws', { endpoint: server.url, ...options }, makeContext('aws', ENV));
  const outcome = await system.call(makeCall(await ONE_PAGE, 'application/pdf', request));
  await system.close();
  if (!outcome.ok) throw outcome.error;
  const sent = server.requests[0]!;
  return {
    result: outcome.result,
    target: sent.headers['x-amz-target'],
    sent: JSON.parse(sent.body.toString('utf8')) as Record<string, unknown>,
  };
}

async function markdownOf(body: Recording['body'], options: Record<string, unknown>): Promise<string> {
  const { result } = await replay(body, options, compareRequest);
  return (result as CompareResult).pages[0]!.content;
}

/** Whether `part` occurs in `whole` as a run of consecutive words. */
function containsRun(whole: readonly string[], part: readonly string[]): boolean {
  return whole.some((_, i) => part.every((word, j) => whole[i + j] === word));
}

/** What every rendering of a recording must keep: words, line order, tables, check boxes. */
function expectKept(body: Recording['body'], markdown: string): void {
  expectText(body, markdown);
  expectTables(body, markdown);
}

/** Every LINE's words, each line outside a table in its order, and every check box as ☒/☐. */
function expectText(body: Recording['body'], markdown: string): void {
  const truth = recordedLineWords(body);
  const score = scoreWords(markdown, truth.join(' '));
  expect(score.recall).toBeGreaterThanOrEqual(0.99);
  // Nor said twice (a table's title that is also its first cell, a table's words also as text).
  expect(score.precision).toBeGreaterThanOrEqual(0.99);

  // A line no table holds reads in its own order (table lines are checked cell by cell below).
  const byId = new Map(body.Blocks.map((b) => [b.Id, b]));
  const inTables = new Set(blocksOf(body, 'TABLE').flatMap((table) => tableWordIds(byId, table)));
  const words = tokenizeWords(markdown);
  const freeLines = blocksOf(body, 'LINE').filter((line) => !childIds(line).some((id) => inTables.has(id)));
  const outOfOrder = freeLines.filter((line) => !containsRun(words, tokenizeWords(line.Text ?? '')));
  expect(outOfOrder.map((line) => line.Text)).toEqual([]);

  const marks = blocksOf(body, 'SELECTION_ELEMENT');
  expect((markdown.match(/☒/g) ?? []).length).toBe(marks.filter((m) => m.SelectionStatus === 'SELECTED').length);
  expect((markdown.match(/☐/g) ?? []).length).toBe(marks.filter((m) => m.SelectionStatus !== 'SELECTED').length);
}

function expectTables(body: Recording['body'], markdown: string): void {
  // One markdown table per TABLE, same rows × columns and the same words in every cell.
  const found = findTables(markdown).map((table) =>
    table.rows.map((row) => row.map((cell) => tokenizeWords(cell.text).join(' '))),
  );
  const recorded = recordedTables(body);
  expect(found).toHaveLength(recorded.length);
  const unmatched = [...found];
  for (const table of recorded) {
    const at = unmatched.findIndex((candidate) => JSON.stringify(candidate) === JSON.stringify(table));
    expect(
      at,
      `no markdown table equals the recorded ${table.length}×${table[0]?.length} table starting ${JSON.stringify(table[0])}`,
    ).toBeGreaterThanOrEqual(0);
    unmatched.splice(at, 1);
  }
}

function childIds(block: RecordedBlock, type = 'CHILD'): string[] {
  return (block.Relationships ?? []).filter((r) => r.Type === type).flatMap((r) => r.Ids);
}

function tableWordIds(byId: Map<string, RecordedBlock>, table: RecordedBlock): string[] {
  const holders = [...childIds(table), ...childIds(table, 'TABLE_TITLE'), ...childIds(table, 'TABLE_FOOTER')].map(
    (id) => byId.get(id)!,
  );
  return holders.flatMap((holder) => childIds(holder));
}

describe('textract on recorded answers', () => {
  it.each(analyzed.map((r) => [r.name, r] as const))(
    '%s → markdown with every line, table and check box (LAYOUT)',
    async (_name, recording) => {
      expectKept(recording.body, await markdownOf(recording.body, {}));
    },
  );

  it.each(analyzed.map((r) => [r.name, r] as const))(
    '%s → the same without LAYOUT blocks (features TABLES, FORMS)',
    async (_name, recording) => {
      const body = withoutLayout(recording.body);
      expect(blocksOf(body, 'TABLE').length).toBeGreaterThan(0);
      expectKept(body, await markdownOf(body, { features: ['TABLES', 'FORMS'] }));
    },
  );

  it.each(analyzed.map((r) => [r.name, r] as const))(
    '%s → every line without TABLE blocks (features LAYOUT), a LAYOUT_TABLE laid out by geometry',
    async (_name, recording) => {
      const body = withoutTables(recording.body);
      const markdown = await markdownOf(body, { features: ['LAYOUT'] });
      expectText(body, markdown);
      // Only a LAYOUT_TABLE's lines may become a table: at most one table per LAYOUT_TABLE.
      expect(findTables(markdown).length).toBeLessThanOrEqual(blocksOf(body, 'LAYOUT_TABLE').length);
    },
  );

  it.each(analyzed.map((r) => [r.name, r] as const))(
    '%s → lines and tables no layout block holds (LAYOUT_TEXT removed) still placed',
    async (_name, recording) => {
      const body = withoutBlocks(recording.body, (b) => b.BlockType === 'LAYOUT_TEXT');
      expectKept(body, await markdownOf(body, {}));
    },
  );

  it.each(recordings.map((r) => [r.name, r] as const))(
    '%s → one region per LINE, inside its page',
    async (_name, recording) => {
      const { result } = await replay(recording.body, {}, splitRequest);
      const [page] = (result as SplitResult).pages;
      const lines = blocksOf(recording.body, 'LINE');
      expect(page!.bounding_boxes.map((b) => b.content)).toEqual(lines.map((l) => l.Text));
      for (const { bounding_box: box, confidence } of page!.bounding_boxes) {
        expect(box.min_x).toBeGreaterThanOrEqual(0);
        expect(box.min_y).toBeGreaterThanOrEqual(0);
        expect(box.max_x).toBeLessThanOrEqual(page!.width / 72);
        expect(box.max_y).toBeLessThanOrEqual(page!.height / 72);
        expect(box.min_x).toBeLessThanOrEqual(box.max_x);
        expect(confidence).toBeGreaterThan(0);
      }
    },
  );

  it.each(detected.map((r) => [r.name, r] as const))(
    '%s → calls DetectDocumentText with api: DetectDocumentText and keeps every line',
    async (_name, recording) => {
      const { result, target, sent } = await replay(recording.body, { api: 'DetectDocumentText' }, compareRequest);
      expect(target).toBe('Textract.DetectDocumentText');
      expect(Object.keys(sent)).toEqual(['Document']);
      const markdown = (result as CompareResult).pages[0]!.content;
      expectText(recording.body, markdown);
      // No TABLE blocks here: the page's grid of lines "Cell 1" … "Cell 15" is found by geometry (real line heights).
      const cells = blocksOf(recording.body, 'LINE').flatMap((line) =>
        /^Cell \d+$/.test(line.Text ?? '') ? [line.Text!] : [],
      );
      expect(cells).toHaveLength(15);
      expect(findTables(markdown).map((table) => table.rows.map((row) => row.map((cell) => cell.text)))).toEqual([
        [cells.slice(0, 5), cells.slice(5, 10), cells.slice(10, 15)],
      ]);
    },
  );
});

describe('textract extract from recorded FORMS answers', () => {
  const recording = (name: string) => analyzed.find((r) => r.name.startsWith(name))!.body;

  /** Each KEY's printed text with its VALUE's words and the pair's confidence, as recorded. */
  function recordedPairs(body: Recording['body']): { key: string; value: string }[] {
    const byId = new Map(body.Blocks.map((b) => [b.Id, b]));
    const text = (block: RecordedBlock) =>
      childIds(block)
        .map((id) => byId.get(id)!)
        .filter((b) => b.BlockType === 'WORD')
        .map((b) => b.Text)
        .join(' ');
    return blocksOf(body, 'KEY_VALUE_SET')
      .filter((b) => b.EntityTypes?.includes('KEY'))
      .map((key) => ({
        key: text(key),
        value: childIds(key, 'VALUE')
          .map((id) => text(byId.get(id)!))
          .join(' '),
      }))
      .filter((pair) => pair.key !== '' && pair.value !== '');
  }

  it.each(analyzed.map((r) => [r.name, r] as const))(
    '%s → every key-value pair fills a field named after its key, and one fieldMap names',
    async (_name, recording) => {
      const pairs = recordedPairs(recording.body);
      expect(pairs.length).toBeGreaterThan(0);
      // A field per distinct key, named as a schema author would write it ("Pay date:" → pay_date).
      const names = new Map<string, string[]>();
      for (const { key, value } of pairs) {
        const name = key
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '_')
          .replace(/^_+|_+$/g, '');
        if (name !== '') names.set(name, [...(names.get(name) ?? []), value]);
      }
      const schema = {
        type: 'object',
        properties: Object.fromEntries([...names.keys()].map((name) => [name, { type: 'string' }])),
      };
      const { result } = await replay(recording.body, { extractFeatures: ['FORMS'] }, extractRequest(schema));
      const data = (result as ExtractResult).data;
      for (const [name, values] of names) expect(values, name).toContain(data[name]);

      const [first] = pairs;
      const mapped = await replay(
        recording.body,
        { extractFeatures: ['FORMS'], fieldMap: { mapped: first!.key } },
        extractRequest({ type: 'object', properties: { mapped: { type: 'string' } } }),
      );
      expect(pairs.filter((p) => p.key === first!.key).map((p) => p.value)).toContain(
        (mapped.result as ExtractResult).data.mapped,
      );
    },
  );

  it('fills schema fields from key-value pairs matched by name, title or description, typed by the schema', async () => {
    const schema = {
      type: 'object',
      properties: {
        invoice_number: { type: 'string' },
        dates: {
          type: 'object',
          properties: {
            issued: { type: 'string', description: 'Invoice date' },
            due: { type: 'string', title: 'Due date' },
          },
        },
        order_number: { type: 'integer' },
        total_due: { type: 'number' },
        subtotal: { type: 'number', description: 'Sub total before tax' },
        purchaser: { type: 'string', description: 'Name of the buyer' },
      },
    };
    const { result, sent } = await replay(recording('sample-invoice'), {}, extractRequest(schema));
    expect(sent.FeatureTypes).toEqual(['QUERIES', 'FORMS']);
    const extract = result as ExtractResult;
    // The recording has no QUERY blocks: every value comes from a key-value pair ("Invoice Number", "Invoice
    // Date", "Due Date", "Order Number", "Total Due", "Sub Total"); no key names a buyer.
    expect(extract.data).toEqual({
      invoice_number: 'INV-3337',
      dates: { issued: 'January 25, 2016', due: 'January 31, 2016' },
      order_number: 12345,
      total_due: 93.5,
      subtotal: 85,
    });
    expect(extract.confidence).toBeGreaterThan(90);
    expect(extract.confidence).toBeLessThanOrEqual(100);
    expect(extract.confidenceScale).toBe('0-100');
  });

  it('takes the key fieldMap names over name matching, and a query answer over both', async () => {
    const body = recording('paystub_tables');
    // A QUERY block as QUERIES adds it (https://docs.aws.amazon.com/textract/latest/dg/API_Block.html), for the field a pair also answers.
    const answer = { Id: 'query-answer-1', BlockType: 'QUERY_RESULT', Text: '7/26/2008', Confidence: 71 };
    const query = {
      Id: 'query-1',
      BlockType: 'QUERY',
      Query: { Text: 'What is the pay date?', Alias: 'pay_date' },
      Relationships: [{ Type: 'ANSWER', Ids: [answer.Id] }],
    };
    const schema = {
      type: 'object',
      properties: {
        pay_date: { type: 'string' },
        employee: { type: 'object', properties: { ssn: { type: 'string' }, status: { type: 'string' } } },
        period_end: { type: 'string' },
      },
    };
    const options = {
      fieldMap: {
        'employee.ssn': 'Social Security Number',
        'employee.status': 'Taxable marital status:',
        period_end: 'Period ending',
      },
    };
    const { result, sent } = await replay(
      { ...body, Blocks: [...body.Blocks, query, answer] },
      options,
      extractRequest(schema),
    );
    expect((sent.QueriesConfig as { Queries: unknown[] }).Queries).toHaveLength(4);
    const extract = result as ExtractResult;
    expect(extract.data).toEqual({
      pay_date: '7/26/2008',
      employee: { ssn: '987-65-4321', status: 'Married' },
      period_end: '7/18/2008',
    });
    // The query's 71 and each pair's own: the mean of its KEY and VALUE blocks' confidences.
    const pairConfidence = (key: string) => {
      const byId = new Map(body.Blocks.map((b) => [b.Id, b]));
      const block = blocksOf(body, 'KEY_VALUE_SET').find(
        (b) =>
          b.EntityTypes?.includes('KEY') &&
          childIds(b)
            .map((id) => byId.get(id)!.Text)
            .join(' ') === key,
      )!;
      return (block.Confidence! + byId.get(childIds(block, 'VALUE')[0]!)!.Confidence!) / 2;
    };
    const expected =
      (71 +
        pairConfidence('Social Security Number:') +
        pairConfidence('Taxable Marital Status:') +
        pairConfidence('Period ending:')) /
      4;
    expect(extract.confidence).toBeCloseTo(expected, 2);
  });

  it('reads a check box pair as a boolean field', async () => {
    const schema = {
      type: 'object',
      properties: {
        utility_company: { type: 'boolean', description: 'Heard of the program from the utility company' },
        radio: { type: 'boolean' },
        telephone: { type: 'string' },
      },
    };
    const { result, sent } = await replay(recording('form'), { extractFeatures: ['FORMS'] }, extractRequest(schema));
    expect(sent.FeatureTypes).toEqual(['FORMS']);
    expect(sent.QueriesConfig).toBeUndefined();
    expect((result as ExtractResult).data).toEqual({
      utility_company: true,
      radio: false,
      telephone: '(702) 486-1404',
    });
  });
});
