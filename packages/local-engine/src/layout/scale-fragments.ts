import type { Fragment } from './types.js';

/** The fragments with their boxes and font sizes multiplied by `factor` (pixels → points, one scale → another). */
export function scaleFragments(words: Fragment[], factor: number): Fragment[] {
  return words.map((w) => ({
    ...w,
    fontSize: w.fontSize * factor,
    box: { x0: w.box.x0 * factor, y0: w.box.y0 * factor, x1: w.box.x1 * factor, y1: w.box.y1 * factor },
  }));
}
