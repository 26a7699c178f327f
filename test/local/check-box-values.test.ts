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

/** The booleans named after each option, read from a page of ☐ / ☒ runs. */
function readOptions(fragments: Fragment[], options: string[]): Record<string, unknown> {
  const { runs, checkBoxes } = takeGlyphCheckBoxes(fragments);
  const page = { ...buildPageLayout(1, 612, 792, 'text-layer', buildRows(runs)), checkBoxes };
  const properties = Object.fromEntries(
    options.map((o) => [o.toLowerCase().replace(/\W+/g, '_'), { type: 'boolean', description: o }]),
  );
  const result = buildExtractResult([page], { type: 'object', properties } as unknown as JsonSchema, false, 'US');
  return JSON.parse(result.response as string) as Record<string, unknown>;
}

describe('boolean fields named after one option of a group of check boxes', () => {
  it("reads each option's own box where the next option's box is also within reach of its caption", () => {
    const got = readOptions(
      [run('☐ House  ☐ Apartment  ☒ Condo  ☐ Rent Room', 20, 100)],
      ['House', 'Apartment', 'Condo', 'Rent Room'],
    );
    expect(got).toEqual({ house: false, apartment: false, condo: true, rent_room: false });
  });

  it('takes the option from the side its row prints options on, not the nearer word of the next option', () => {
    // The box before "Other" is nearer to "Trailer" than to "Other" (mirrored: the box after "Other"): each row
    // prints its options on one side of the boxes.
    for (const row of [
      '☐ Duplex  ☐ Studio  ☒ Travel Trailer ☐  Other',
      'Other  ☐ Travel Trailer ☒  Studio ☐  Duplex ☐',
    ])
      expect(readOptions([run(row, 20, 100)], ['Duplex', 'Studio', 'Travel Trailer', 'Other'])).toEqual({
        duplex: false,
        studio: false,
        travel_trailer: true,
        other: false,
      });
  });

  it("reads an option's box in a column of options, not the box of the row just above it", () => {
    // Rows 12 pt apart: the row above lies within a caption height of a caption's line.
    const got = readOptions(
      [
        run('☐ TV', 20, 100),
        run('☐ Friend', 120, 100),
        run('☐ Radio', 20, 112),
        run('☐ Landlord', 120, 112),
        run('☐ Print Media', 20, 124),
        run('☒ Utility Company', 120, 124),
      ],
      ['TV', 'Friend', 'Radio', 'Landlord', 'Print Media', 'Utility Company'],
    );
    expect(got).toEqual({
      tv: false,
      friend: false,
      radio: false,
      landlord: false,
      print_media: false,
      utility_company: true,
    });
  });
});
