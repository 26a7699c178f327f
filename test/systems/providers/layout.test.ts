/** The pure layout helpers shared by provider kinds: lines → markdown blocks, HTML tables, boxes. */
import { describe, expect, it } from 'vitest';
import {
  htmlTablesToMarkdown,
  linesToBlocks,
  polygonToInches,
  relativeToInches,
  renderMarkdown,
  type TextLine,
} from '../../../src/systems/providers/layout.js';

/** A line at row `y` (height 10) with words at the given x positions, each 8 units per character. */
function line(y: number, ...words: [string, number][]): TextLine {
  return {
    words: words.map(([text, x]) => ({ text, x0: x, x1: x + text.length * 8 })),
    top: y,
    bottom: y + 10,
    height: 10,
  };
}

describe('linesToBlocks', () => {
  it('reads a two-column layout left column first, and a table with an empty cell and a header', () => {
    const lines = [
      line(0, ['Clinic', 0], ['Phone:', 400]),
      line(20, ['Main', 0], ['St', 40], ['NPI:', 400]),
      line(40, ['Services', 0]),
      line(60, ['Code', 0], ['Mod', 200], ['Units', 300], ['Charge', 400]),
      line(80, ['99213', 0], ['25', 200], ['1', 300], ['$10.00', 400]),
      // No modifier: the empty cell stays in its column.
      line(100, ['80053', 0], ['2', 300], ['$5.00', 400]),
    ];
    expect(renderMarkdown(linesToBlocks(lines))).toBe(
      'Clinic\n\nMain St\n\nPhone:\n\nNPI:\n\nServices\n\n| Code | Mod | Units | Charge |\n| --- | --- | --- | --- |\n| 99213 | 25 | 1 | $10.00 |\n| 80053 |  | 2 | $5.00 |',
    );
  });

  it('joins lines an engine read as separate blocks into one row when they sit side by side', () => {
    const lines = [
      line(0, ['a', 0]),
      line(20, ['x', 0]),
      line(21, ['y', 200]),
      line(19, ['z', 400]),
      line(40, ['p', 0], ['q', 200], ['r', 400]),
    ];
    expect(linesToBlocks(lines)).toEqual([
      { kind: 'paragraph', text: 'a' },
      {
        kind: 'table',
        rows: [
          ['x', 'y', 'z'],
          ['p', 'q', 'r'],
        ],
      },
    ]);
  });

  it('with tables: false, reads each row of cells as a paragraph (for services that find tables themselves)', () => {
    const lines = [
      line(0, ['x', 0], ['y', 200], ['z', 400]),
      line(20, ['p', 0], ['q', 200], ['r', 400]),
      line(40, ['left', 0], ['right', 400]),
      line(60, ['below', 0], ['beside', 400]),
    ];
    expect(linesToBlocks(lines, { tables: false })).toEqual([
      { kind: 'paragraph', text: 'x y z' },
      { kind: 'paragraph', text: 'p q r' },
      // Two columns are still read left first.
      { kind: 'paragraph', text: 'left' },
      { kind: 'paragraph', text: 'below' },
      { kind: 'paragraph', text: 'right' },
      { kind: 'paragraph', text: 'beside' },
    ]);
  });
});

describe('boxes and tables', () => {
  it('converts HTML tables to pipe tables, decoding entities and escaping pipes', () => {
    expect(
      htmlTablesToMarkdown(
        'Before\n<table><tr><th>A &amp; B</th><th>C</th></tr><tr><td>x|y</td><td><b>1</b></td></tr></table>\nAfter',
      ),
    ).toBe('Before\n| A & B | C |\n| --- | --- |\n| x\\|y | 1 |\nAfter');
  });

  it('places HTML cells with rowspan and colspan on the grid, the positions they cover left empty', () => {
    const html =
      '<table><tr><th colspan="2">Earnings</th><th>Total</th></tr><tr><td rowspan="2">Pay</td><td>10</td><td>30</td></tr><tr><td>20</td><td></td></tr></table>';
    expect(htmlTablesToMarkdown(html)).toBe(
      '| Earnings |  | Total |\n| --- | --- | --- |\n| Pay | 10 | 30 |\n|  | 20 |  |',
    );
  });

  it('converts page fractions and polygons to inches', () => {
    expect(relativeToInches({ left: 0.5, top: 0.25, right: 1, bottom: 0.5 }, { width: 612, height: 792 })).toEqual({
      min_x: 4.25,
      min_y: 2.75,
      max_x: 8.5,
      max_y: 5.5,
    });
    expect(polygonToInches([150, 300, 450, 300, 450, 600, 150, 600], 300)).toEqual({
      min_x: 0.5,
      min_y: 1,
      max_x: 1.5,
      max_y: 2,
    });
  });
});
