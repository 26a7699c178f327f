import { describe, expect, it } from 'vitest';
import { componentBoxes } from '../src/pixel-components.js';

/** A raster from rows of '#' (on) and '.' (off). */
function raster(rows: string[]) {
  const width = rows[0]!.length;
  const on = rows
    .join('')
    .split('')
    .map((c) => c === '#');
  return { width, height: rows.length, isOn: (at: number) => on[at]! };
}

describe('componentBoxes', () => {
  const diagonal = raster(['#...', '.#..', '..##', '....', '#..#']);

  it('joins pixels that share a corner only with 8-connectivity', () => {
    const { width, height, isOn } = diagonal;
    expect(componentBoxes(width, height, isOn, 8)).toEqual([
      { x0: 0, y0: 0, x1: 3, y1: 2 },
      { x0: 0, y0: 4, x1: 0, y1: 4 },
      { x0: 3, y0: 4, x1: 3, y1: 4 },
    ]);
    expect(componentBoxes(width, height, isOn, 4)).toEqual([
      { x0: 0, y0: 0, x1: 0, y1: 0 },
      { x0: 1, y0: 1, x1: 1, y1: 1 },
      { x0: 2, y0: 2, x1: 3, y1: 2 },
      { x0: 0, y0: 4, x1: 0, y1: 4 },
      { x0: 3, y0: 4, x1: 3, y1: 4 },
    ]);
  });

  it('bounds a component that winds back on itself, in the order of its first pixel', () => {
    const { width, height, isOn } = raster(['.###.', '.#.#.', '##.#.', '...#.', '.....']);
    expect(componentBoxes(width, height, isOn, 4)).toEqual([{ x0: 0, y0: 0, x1: 3, y1: 3 }]);
  });
});
