import { describe, expect, it } from 'vitest';
import { buildExtractResult } from '../../src/local/endpoints.js';
import { takeGlyphCheckBoxes } from '../../src/local/glyph-check-boxes.js';
import { buildPageLayout } from '../../src/local/layout/build-blocks.js';
import { buildRows } from '../../src/local/layout/build-lines.js';
import type { Fragment } from '../../src/local/layout/types.js';
import type { JsonSchema } from '../../src/types.js';

function run(text: string, x0: number, y0: number, charWidth = 6): Fragment {
  return { text, box: { x0, y0, x1: x0 + [...text].length * charWidth, y1: y0 + 10 }, fontSize: 10, confidence: 100 };
}

describe('takeGlyphCheckBoxes (check boxes printed as characters in a text layer)', () => {
  it('turns ☐ and ☒ into check boxes at their place in the run and splits the run around them', () => {
    const { runs, checkBoxes } = takeGlyphCheckBoxes([run('☐ Yes ☒ No', 100, 200), run('Name', 20, 200)]);
    expect(runs.map((r) => [r.text, r.box.x0, r.box.x1])).toEqual([
      ['Yes', 112, 130],
      ['No', 148, 160],
      ['Name', 20, 44],
    ]);
    expect(checkBoxes).toEqual([
      { box: { x0: 100, y0: 200, x1: 106, y1: 210 }, marked: false },
      { box: { x0: 136, y0: 200, x1: 142, y1: 210 }, marked: true },
    ]);
  });

  it('lets the extraction answer booleans and enums from them, as from boxes found in pixels', () => {
    const fragments = [
      run('Employment related?', 20, 100),
      run('☐ YES   ☒ NO', 20, 114),
      run('Plan type', 20, 140),
      run('☐ Medicare   ☒ Medicaid   ☐ Other', 20, 154),
    ];
    const { runs, checkBoxes } = takeGlyphCheckBoxes(fragments);
    const page = { ...buildPageLayout(1, 612, 792, 'text-layer', buildRows(runs)), checkBoxes };
    const schema = {
      type: 'object',
      properties: {
        employment_related: { type: 'boolean', description: 'Employment related' },
        plan: { type: 'string', description: 'Plan type', enum: ['Medicare', 'Medicaid', 'Other'] },
      },
    } as unknown as JsonSchema;
    const result = buildExtractResult([page], schema, false, 'US');
    expect(JSON.parse(result.response as string)).toEqual({ employment_related: false, plan: 'Medicaid' });
  });
});
