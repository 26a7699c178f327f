/** Synthetic pages for the extraction tests: fragments placed in points, laid out by the engine. */
import { extractFields } from '../src/extract/extract-fields.js';
import { buildPageLayout } from '../src/layout/build-blocks.js';
import { buildRows } from '../src/layout/build-lines.js';
import type { Fragment, PageLayout } from '../src/layout/types.js';

/** A fragment at (x, y) in points with `size` pt type, ~0.55 em a character. */
export function at(text: string, x: number, y: number, size = 10): Fragment {
  return {
    text,
    box: { x0: x, y0: y, x1: x + text.length * size * 0.55, y1: y + size },
    fontSize: size,
    confidence: 100,
  };
}

/** One Letter-wide page of the fragments, from a text layer unless said otherwise. */
export function page(fragments: Fragment[], height = 792, source: PageLayout['source'] = 'text-layer'): PageLayout[] {
  return [buildPageLayout(1, 612, height, source, buildRows(fragments))];
}

/** The slow-mode fields of one such page for a schema of these properties. */
export function extractPage(
  fragments: Fragment[],
  properties: Record<string, object>,
  source: PageLayout['source'] = 'text-layer',
) {
  return extractFields(page(fragments, 792, source), { type: 'object', properties }, { fast: false }).data;
}
