/**
 * Box checks and overlap for /split regions: boxes in inches, origin top-left (docs/service-interface.md §2.3); pages sized
 * in points (72 per inch).
 */
import type { InchBox } from '../../service/index.js';

export const POINTS_PER_INCH = 72;

/** Why a box was rejected. */
export type BoxProblem = 'not-finite' | 'not-positive-size' | 'outside-page';

/**
 * Returns why `box` is unusable on a page of `widthPt` × `heightPt` points, or `null` when it is fine.
 * `toleranceIn` allows boxes that overshoot the page edge by rounding (inches). Page sizes that are not
 * positive finite numbers skip the inside-page test (there is nothing to test against).
 */
export function checkBox(box: InchBox, widthPt: number, heightPt: number, toleranceIn: number): BoxProblem | null {
  const { min_x, min_y, max_x, max_y } = box;
  if (![min_x, min_y, max_x, max_y].every(Number.isFinite)) return 'not-finite';
  if (!(max_x > min_x && max_y > min_y)) return 'not-positive-size';
  if (Number.isFinite(widthPt) && widthPt > 0 && Number.isFinite(heightPt) && heightPt > 0) {
    const width = widthPt / POINTS_PER_INCH;
    const height = heightPt / POINTS_PER_INCH;
    if (min_x < -toleranceIn || min_y < -toleranceIn || max_x > width + toleranceIn || max_y > height + toleranceIn)
      return 'outside-page';
  }
  return null;
}

/** Intersection over union of two valid boxes, in [0, 1]. */
export function computeIoU(a: InchBox, b: InchBox): number {
  const width = Math.min(a.max_x, b.max_x) - Math.max(a.min_x, b.min_x);
  const height = Math.min(a.max_y, b.max_y) - Math.max(a.min_y, b.min_y);
  if (width <= 0 || height <= 0) return 0;
  const intersection = width * height;
  const union = (a.max_x - a.min_x) * (a.max_y - a.min_y) + (b.max_x - b.min_x) * (b.max_y - b.min_y) - intersection;
  return Math.min(1, intersection / union);
}
