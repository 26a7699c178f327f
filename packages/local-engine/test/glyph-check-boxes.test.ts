import { describe, expect, it } from 'vitest';
import { takeGlyphCheckBoxes } from '../src/glyph-check-boxes.js';
import { readGlyphPage, run } from './glyph-page.js';

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
    const got = readGlyphPage(fragments, {
      employment_related: { type: 'boolean', description: 'Employment related' },
      plan: { type: 'string', description: 'Plan type', enum: ['Medicare', 'Medicaid', 'Other'] },
    });
    expect(got).toEqual({ employment_related: false, plan: 'Medicaid' });
  });
});
