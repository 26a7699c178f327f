/** Pages of text-layer runs with check boxes printed as ☐ / ☒ characters, read through /extract's code. */
import { buildExtractResult } from '../src/endpoints.js';
import { takeGlyphCheckBoxes } from '../src/glyph-check-boxes.js';
import { buildPageLayout } from '../src/layout/build-blocks.js';
import { buildRows } from '../src/layout/build-lines.js';
import type { Fragment } from '../src/layout/types.js';
import type { JsonSchema } from '../src/contract.js';

/** A run of 10-pt text at (x0, y0), `charWidth` points a character. */
export function run(text: string, x0: number, y0: number, charWidth = 6): Fragment {
  return { text, box: { x0, y0, x1: x0 + [...text].length * charWidth, y1: y0 + 10 }, fontSize: 10, confidence: 100 };
}

/** The fields of `properties` read from one page of runs, their box characters taken as check boxes. */
export function readGlyphPage(fragments: Fragment[], properties: Record<string, unknown>): Record<string, unknown> {
  const { runs, checkBoxes } = takeGlyphCheckBoxes(fragments);
  const page = { ...buildPageLayout(1, 612, 792, 'text-layer', buildRows(runs)), checkBoxes };
  const result = buildExtractResult([page], { type: 'object', properties } as unknown as JsonSchema, false, 'US');
  return JSON.parse(result.response as string) as Record<string, unknown>;
}
