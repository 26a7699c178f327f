/**
 * `azure-di` on answers the service itself gave: prebuilt-layout results recorded with API 2022-06-30-preview
 * by Microsoft's sample project (test/fixtures/recordings/azure-di/README.md for the source and licence),
 * replayed from a local server as the GET of the analyze operation. That API version has no markdown output:
 * `content` is plain text with the selection marks at its end, so the markdown is built from paragraphs and
 * tables. Figures: every recorded line's words in the markdown (the scorer's recall and precision ≥ 0.99), one
 * pipe table per recorded table with its rows × columns and cell words, each selection mark once as ☒/☐, one
 * region per line inside its page.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { azureDiKind } from '../../../src/systems/kinds/azure-di.js';
import type { CompareResult, SplitResult } from '../../../src/service/types.js';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import { ONE_PAGE, compareRequest, createSystem, makeCall, makeContext, sendJson, splitRequest } from './context.js';
import { scoreWords } from '../../../src/score/markdown/words.js';
import { cellWords, markdownTables, regionsOutsidePage } from './recording-figures.js';

const KEY = 'azure-key-0123456789';
const RECORDINGS = ['ContosoSafety360-Sample-2', 'ContosoSafety360-Sample-3'];

interface Recorded {
  analyzeResult: {
    pages: { pageNumber: number; lines: { content: string }[]; selectionMarks?: { state: string }[] }[];
    tables: RecordedTable[];
  };
}

interface RecordedTable {
  rowCount: number;
  columnCount: number;
  cells: { rowIndex: number; columnIndex: number; content: string }[];
}

/** A recorded table as its grid of cell words: each cell at its first position, the positions a span covers empty. */
function recordedGrid(table: RecordedTable): string[][] {
  const grid = Array.from({ length: table.rowCount }, () => new Array<string>(table.columnCount).fill(''));
  for (const cell of table.cells)
    grid[cell.rowIndex]![cell.columnIndex] = cellWords(cell.content.replace(/:(un)?selected:/g, ''));
  return grid;
}

function recording(name: string): Recorded & Record<string, unknown> {
  return JSON.parse(
    readFileSync(new URL(`../../fixtures/recordings/azure-di/${name}.pdf.layout.json`, import.meta.url), 'utf8'),
  ) as Recorded & Record<string, unknown>;
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers the analyze POST with 202 and the operation's GET with the recorded body. */
async function replay(body: unknown): Promise<TestServer> {
  server = await startHttpServer((request, response) => {
    if (request.method === 'POST') {
      response.writeHead(202, {
        'operation-location': `${server!.url}/formrecognizer/documentModels/prebuilt-layout/analyzeResults/op-1?api-version=2022-06-30-preview`,
        'retry-after': '0',
      });
      return void response.end();
    }
    sendJson(response, 200, body);
  });
  return server;
}

async function run(
  body: unknown,
  request: typeof compareRequest | typeof splitRequest,
  apiVersion = '2022-06-30-preview',
) {
  const resource = await replay(body);
  const system = await createSystem(
    azureDiKind,
    'azure',
    { endpoint: resource.url, apiKeyEnv: 'TEST_AZURE_KEY', apiVersion },
    makeContext('azure', { TEST_AZURE_KEY: KEY }, ['TEST_AZURE_KEY']),
  );
  const outcome = await system.call(makeCall(await ONE_PAGE, 'application/pdf', request));
  await system.close();
  if (!outcome.ok) throw outcome.error;
  return { outcome, resource };
}

/** A one-page answer of prebuilt-layout (US letter, inches) with the given content and structure. */
function layoutAnswer(
  header: Record<string, unknown>,
  content: string,
  page: Record<string, unknown>,
  paragraphs: unknown[],
) {
  return {
    status: 'succeeded',
    analyzeResult: {
      modelId: 'prebuilt-layout',
      ...header,
      content,
      pages: [
        {
          pageNumber: 1,
          width: 8.5,
          height: 11,
          unit: 'inch',
          spans: [{ offset: 0, length: content.length }],
          ...page,
        },
      ],
      paragraphs,
    },
  };
}

describe('azure-di on recorded prebuilt-layout answers (API 2022-06-30-preview)', () => {
  for (const name of RECORDINGS) {
    it(`${name}: markdown from paragraphs and tables keeps every line's words, each table's shape and each selection mark`, async () => {
      const recorded = recording(name);
      const { outcome, resource } = await run(recorded, compareRequest);
      // v3 versions live under /formrecognizer and have no outputContentFormat.
      expect(resource.requests[0]!.url).toBe(
        '/formrecognizer/documentModels/prebuilt-layout:analyze?api-version=2022-06-30-preview',
      );
      const markdown = (outcome.result as CompareResult).pages.map((p) => p.content).join('\n\n');
      const lines = recorded.analyzeResult.pages.flatMap((p) => p.lines.map((l) => l.content));
      // Every line's words, none said twice (a table's words also as text, a mark's word beside its glyph).
      const words = scoreWords(markdown, lines.join('\n'));
      expect(words.recall).toBeGreaterThanOrEqual(0.99);
      expect(words.precision).toBeGreaterThanOrEqual(0.99);
      // One pipe table per recorded table, in order: the same rows × columns and the same words in every cell.
      expect(markdownTables(markdown)).toEqual(recorded.analyzeResult.tables.map(recordedGrid));
      // The form prints its boxes (☒Hazardous) where Azure also found marks: each mark is said once, in its state.
      const marks = recorded.analyzeResult.pages.flatMap((p) => p.selectionMarks ?? []);
      expect(markdown.match(/☒/g)?.length ?? 0).toBe(marks.filter((m) => m.state === 'selected').length);
      expect(markdown.match(/☐/g)?.length ?? 0).toBe(marks.filter((m) => m.state === 'unselected').length);
      expect(markdown).not.toMatch(/:(un)?selected:/);
      expect(markdown.startsWith('# Contoso Safety 360\n\n|')).toBe(true);
      expect(outcome.raw).toMatchObject({
        markdownFrom: 'paragraphs-and-tables',
        analyzeResult: { apiVersion: '2022-06-30-preview' },
      });
    });

    it(`${name}: one region per recorded line, inside its page`, async () => {
      const recorded = recording(name);
      const { outcome } = await run(recorded, splitRequest);
      const pages = (outcome.result as SplitResult).pages;
      expect(pages.map((p) => p.bounding_boxes.map((b) => b.content))).toEqual(
        recorded.analyzeResult.pages.map((p) => p.lines.map((l) => l.content)),
      );
      expect(regionsOutsidePage(pages)).toBe(0);
    });
  }

  it('renders a recorded table cell by cell, a spanning cell once with the positions it covers left empty', async () => {
    const { outcome } = await run(recording('ContosoSafety360-Sample-3'), compareRequest);
    const markdown = (outcome.result as CompareResult).pages[0]!.content;
    expect(markdown).toContain(
      '| Submitter: | Dirk Fourie |  |  |\n| --- | --- | --- | --- |\n| Department: | Operations | Date: January 5, 2022 |  |',
    );
    expect(markdown).toContain('| ☐Equipment |  | ☐Material Handling |  |');
  });

  it('puts selection marks that sit at the end of content before the word to their right, and keeps lines no paragraph holds', async () => {
    // A minimal v3 answer in the recorded shape: the marks' spans follow the text, as in the recordings.
    const content = 'Consent\nYes No\nSigned by hand :selected: :unselected:';
    const at = (text: string) => ({ offset: content.indexOf(text), length: text.length });
    const word = (text: string, x: number, y: number) => ({
      content: text,
      polygon: [x, y, x + 0.4, y, x + 0.4, y + 0.2, x, y + 0.2],
      confidence: 0.99,
      span: at(text),
    });
    const box = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];
    const answer = layoutAnswer(
      { apiVersion: '2022-06-30-preview' },
      content,
      {
        words: [
          word('Consent', 1, 1),
          word('Yes', 1.3, 2),
          word('No', 2.3, 2),
          word('Signed', 1, 3),
          word('by', 1.5, 3),
          word('hand', 1.8, 3),
        ],
        lines: [
          { content: 'Consent', polygon: box(1, 1, 1.4, 1.2), spans: [at('Consent')] },
          { content: 'Yes No', polygon: box(1.3, 2, 2.7, 2.2), spans: [at('Yes No')] },
          { content: 'Signed by hand', polygon: box(1, 3, 2.2, 3.2), spans: [at('Signed by hand')] },
        ],
        selectionMarks: [
          { state: 'selected', polygon: box(1, 2, 1.2, 2.2), confidence: 0.9, span: at(':selected:') },
          { state: 'unselected', polygon: box(2, 2, 2.2, 2.2), confidence: 0.9, span: at(':unselected:') },
        ],
      },
      [
        {
          role: 'sectionHeading',
          content: 'Consent',
          spans: [at('Consent')],
          boundingRegions: [{ pageNumber: 1, polygon: box(1, 1, 1.4, 1.2) }],
        },
        {
          content: 'Yes No',
          spans: [at('Yes No')],
          boundingRegions: [{ pageNumber: 1, polygon: box(1.3, 2, 2.7, 2.2) }],
        },
      ],
    );
    const { outcome } = await run(answer, compareRequest);
    expect((outcome.result as CompareResult).pages[0]!.content).toBe('## Consent\n\n☒ Yes ☐ No\n\nSigned by hand');
  });

  it('reads a v4 answer whose content is plain text (contentFormat "text") from its structure, marks in place', async () => {
    const content = 'I agree :selected: I do not :unselected:';
    const whole = [{ offset: 0, length: content.length }];
    const line = [1, 1, 4, 1, 4, 1.2, 1, 1.2];
    const answer = layoutAnswer(
      { apiVersion: '2024-11-30', contentFormat: 'text' },
      content,
      {
        words: [],
        lines: [{ content, polygon: line, spans: whole }],
        selectionMarks: [
          {
            state: 'selected',
            polygon: [2, 1, 2.2, 1, 2.2, 1.2, 2, 1.2],
            confidence: 0.9,
            span: { offset: content.indexOf(':selected:'), length: 10 },
          },
          {
            state: 'unselected',
            polygon: [3.8, 1, 4, 1, 4, 1.2, 3.8, 1.2],
            confidence: 0.9,
            span: { offset: content.indexOf(':unselected:'), length: 12 },
          },
        ],
      },
      [{ content, spans: whole, boundingRegions: [{ pageNumber: 1, polygon: line }] }],
    );
    const { outcome, resource } = await run(answer, compareRequest, '2024-11-30');
    expect(resource.requests[0]!.url).toBe(
      '/documentintelligence/documentModels/prebuilt-layout:analyze?api-version=2024-11-30&outputContentFormat=markdown',
    );
    expect((outcome.result as CompareResult).pages[0]!.content).toBe('I agree ☒ I do not ☐');
    expect(outcome.raw).toMatchObject({ markdownFrom: 'paragraphs-and-tables' });
  });
});
