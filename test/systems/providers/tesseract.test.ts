/**
 * `tesseract` against the real engines: the Debian CLI (tesseract-ocr, installed by .ci/run) and tesseract.js
 * with its bundled English model, on a page the test draws itself — so where each line is, in inches, is
 * known independently of any OCR.
 */
import { afterAll, describe, expect, it } from 'vitest';
import PDFDocument from 'pdfkit';
import { tesseractKind } from '../../../src/systems/kinds/tesseract.js';
import { openDocumentPages } from '../../../src/systems/providers/pages.js';
import type { CompareResult, ProcessResult, SplitResult } from '../../../src/service/types.js';
import type { System } from '../../../src/systems/types.js';
import {
  compareRequest,
  createSystem,
  drawPdf,
  makeCall,
  makeContext,
  processRequest,
  splitRequest,
  type DrawnText,
} from './context.js';
import { parseKindOptions } from '../../../src/systems/config.js';

const TEXTS: DrawnText[] = [
  { text: 'Patient Name: Amanda Patel', x: 72, y: 72, size: 16 },
  { text: 'Statement Date: 11/07/2025', x: 72, y: 110, size: 16 },
  ...[
    ['Code', 'Units', 'Charge'],
    ['99213', '1', '125.00'],
    ['80053', '2', '48.50'],
  ].flatMap((row, r) => row.map((text, c) => ({ text, x: 72 + c * 180, y: 180 + r * 30, size: 16 }))),
];

/** Helvetica's advance width of `text` at `size`, from pdfkit's font metrics (not from any OCR). */
function textWidth(text: string, size: number): number {
  const doc = new PDFDocument({ autoFirstPage: false });
  return doc.font('Helvetica').fontSize(size).widthOfString(text);
}

const systems: System[] = [];
afterAll(async () => {
  await Promise.all(systems.map((s) => s.close()));
});

describe.each(['native', 'wasm'] as const)('tesseract (%s engine)', (engine) => {
  const start = async () => {
    const system = await createSystem(
      tesseractKind,
      'ocr',
      { engine, dpi: 200 },
      makeContext('ocr', { PATH: process.env.PATH }),
    );
    systems.push(system);
    return system;
  };

  it('reads a drawn page into markdown lines and a simple table, with usage and raw TSV', async () => {
    const system = await start();
    expect(system.identity).toContain(engine === 'native' ? 'native tesseract 5' : 'tesseract.js');
    const outcome = await system.call(makeCall(await drawPdf([TEXTS]), 'application/pdf', compareRequest));
    if (!outcome.ok) throw outcome.error;
    const result = outcome.result as CompareResult;
    expect(result.pages).toHaveLength(1);
    expect(result.pages[0]).toMatchObject({ width: 612, height: 792 });
    const markdown = result.pages[0]!.content;
    expect(markdown).toContain('Patient Name: Amanda Patel\n\nStatement Date: 11/07/2025');
    expect(markdown).toContain(
      '| Code | Units | Charge |\n| --- | --- | --- |\n| 99213 | 1 | 125.00 |\n| 80053 | 2 | 48.50 |',
    );
    expect(outcome.usage).toEqual({ pages: 1 });
    expect(JSON.stringify(outcome.raw)).toContain('Amanda');
  }, 60_000);

  it('puts each line where it was drawn, in inches, with word confidence', async () => {
    const system = await start();
    const outcome = await system.call(makeCall(await drawPdf([TEXTS]), 'application/pdf', splitRequest));
    if (!outcome.ok) throw outcome.error;
    const [page] = (outcome.result as SplitResult).pages;
    expect(page).toMatchObject({ page: 1, width: 612, height: 792 });
    const line = page!.bounding_boxes.find((b) => b.content === 'Patient Name: Amanda Patel');
    expect(line).toBeDefined();
    const drawn = TEXTS[0]!;
    // Glyphs sit inside the drawn line box: left edge at x, right edge at x + advance width, top below y.
    expect(line!.bounding_box.min_x).toBeCloseTo(drawn.x / 72, 1);
    expect(line!.bounding_box.max_x).toBeCloseTo((drawn.x + textWidth(drawn.text, drawn.size)) / 72, 1);
    expect(line!.bounding_box.min_y).toBeGreaterThanOrEqual(drawn.y / 72);
    expect(line!.bounding_box.max_y).toBeLessThanOrEqual((drawn.y + drawn.size * 1.2) / 72);
    expect(line!.confidence).toBeGreaterThan(80);
    expect(line!.confidence).toBeLessThanOrEqual(100);
  }, 60_000);

  it('reads an image page at its own resolution, and process gives the text', async () => {
    const system = await start();
    const pages = await openDocumentPages(
      { bytes: await drawPdf([TEXTS]), contentType: 'application/pdf' },
      150,
      'split',
    );
    const png = (await pages.png(1)).data;
    await pages.close();
    const split = await system.call(makeCall(png, 'image/png', splitRequest));
    if (!split.ok) throw split.error;
    const [page] = (split.result as SplitResult).pages;
    // A 150-dpi PNG of a letter page is 8.5 × 11 in: 612 × 792 pt again.
    expect(page!.width).toBeCloseTo(612, 0);
    expect(page!.height).toBeCloseTo(792, 0);
    const line = page!.bounding_boxes.find((b) => b.content === 'Statement Date: 11/07/2025');
    expect(line!.bounding_box.min_x).toBeCloseTo(1, 1);
    const processed = await system.call(makeCall(png, 'image/png', processRequest));
    if (!processed.ok) throw processed.error;
    const result = processed.result as ProcessResult;
    expect(result.pageCount).toBe(1);
    expect(result.text.split('\n')[0]).toBe('Patient Name: Amanda Patel');
  }, 60_000);
});

describe('tesseract options', () => {
  it('rejects a bad option naming it', () => {
    expect(() => parseKindOptions(tesseractKind, { psm: 14 }, 'systems.ocr')).toThrow(
      /systems\.ocr\.psm: expected a whole number from 0 to 13, got 14/,
    );
    expect(() => parseKindOptions(tesseractKind, { langauge: 'eng' }, 'systems.ocr')).toThrow(
      /systems\.ocr\.langauge: unknown setting; did you mean "language"\?/,
    );
    expect(() => parseKindOptions(tesseractKind, { engine: 'wasm', language: 'deu' }, 'systems.ocr')).toThrow(
      /systems\.ocr\.language: must be eng with engine wasm/,
    );
  });

  it('stops a native system whose binary does not run, naming the option', async () => {
    const context = makeContext('ocr', { PATH: process.env.PATH });
    await expect(
      createSystem(tesseractKind, 'ocr', { engine: 'native', binary: 'no-such-tesseract' }, context),
    ).rejects.toThrow(/systems\.ocr\.engine is native/);
  });
});
