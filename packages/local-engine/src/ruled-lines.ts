/**
 * Vertical rules inside detected text regions. On a ruled form the text detector often joins the captions or
 * values of two boxes side by side into one region across the rule between them ("…RELATED TO: | 11. INSURED'S
 * POLICY…" read as "TQ1."), and the recogniser then reads the rule as a letter. Text never crosses a rule, so a
 * region is cut where a column of ink runs its whole height (letters never do: the detector's region reaches above
 * the ascenders and below the descenders). Ink is judged against the paper around it (ink-mask.ts), so the grey,
 * shaded rules of a photo count.
 */
import { inkOf, type InkPage, type InkRaster } from './ink-mask.js';

export interface PixelRegion {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Where a rule ends the region: a crop must not reach past it. */
  rightLimit?: number;
  /** The region starts at a rule (cut from the region left of it). */
  afterRule?: boolean;
}

/**
 * Ink for rules is darker than 0.65 of the paper around it (ink-mask.ts). Measured on the CMS-1500 bench
 * (docs/reference.md): 0.7 also takes a blurred photo's parentheses and digit 1 for rules, 0.6 misses a
 * photo's faint sub-box rules.
 */
const RULE_INK_SHARE = 0.65;
/** Share of the region's rows a column must be dark in (within one pixel either side) to be a rule. */
const RULE_COVERAGE = 0.97;
/** Share of the region's rows a rule running in from its top or bottom edge must cover. */
const EDGE_RULE_COVERAGE = 0.55;

/** Whether column x is ink (itself or a neighbour) in row y. */
function darkNear(page: InkPage, x: number, y: number): boolean {
  const row = y * page.width;
  for (let dx = -1; dx <= 1; dx++) {
    const cx = x + dx;
    if (cx >= 0 && cx < page.width && page.mask[row + cx] === 1) return true;
  }
  return false;
}

/**
 * The x positions (pixels) of vertical rules in `region`: dark columns over (nearly) its whole height, or
 * sub-box separators (the rules between MM | DD | YY) that run in from its top or bottom edge over most of it.
 * A letter's stroke reaches neither edge: the detector's region is grown well past the glyphs.
 */
export function verticalRulesIn(page: InkPage, region: PixelRegion): { start: number; end: number }[] {
  const top = Math.max(0, Math.floor(region.y0));
  const bottom = Math.min(page.height - 1, Math.ceil(region.y1) - 1);
  const rows = bottom - top + 1;
  if (rows < 6) return [];
  const rules: { start: number; end: number }[] = [];
  for (let x = Math.ceil(region.x0) + 2; x <= Math.floor(region.x1) - 3; x++) {
    let dark = 0;
    let fromTop = 0;
    let fromBottom = 0;
    for (let y = top; y <= bottom; y++) {
      if (darkNear(page, x, y)) {
        dark++;
        if (fromTop === y - top) fromTop++;
      }
    }
    for (let y = bottom; y >= top && darkNear(page, x, y); y--) fromBottom++;
    if (dark < rows * RULE_COVERAGE && Math.max(fromTop, fromBottom) < rows * EDGE_RULE_COVERAGE) continue;
    // One rule is a few pixels wide: one run of columns.
    const last = rules[rules.length - 1];
    if (last && x - last.end <= 1) last.end = x;
    else rules.push({ start: x, end: x });
  }
  return rules;
}

/** Whether a rule runs down just left of the region (its box's left edge): the text before it is another box's. */
function ruleJustLeft(page: InkPage, region: PixelRegion): boolean {
  const reach = (region.y1 - region.y0) * 1.5;
  return verticalRulesIn(page, { ...region, x0: Math.max(0, region.x0 - reach) - 2, x1: region.x0 + 3 }).length > 0;
}

/**
 * Cuts each region at the vertical rules across it (pieces too narrow to hold a character are dropped) and
 * marks the pieces that start at a rule, so that lines never join text across one.
 */
export function splitAtVerticalRules(raster: InkRaster, regions: PixelRegion[]): PixelRegion[] {
  const page = inkOf(raster, RULE_INK_SHARE);
  const out: PixelRegion[] = [];
  for (const region of regions) {
    const rules = verticalRulesIn(page, region);
    const startsAtRule = ruleJustLeft(page, region);
    if (rules.length === 0) {
      out.push(startsAtRule ? { ...region, afterRule: true } : region);
      continue;
    }
    const minWidth = (region.y1 - region.y0) * 0.4;
    let left = region.x0;
    for (const rule of [...rules, null]) {
      // darkNear widens a rule by a pixel each side: the text ends before its first column, resumes after its last.
      const right = rule === null ? region.x1 : rule.start - 1;
      const cut = left > region.x0 || startsAtRule;
      if (right - left >= minWidth)
        out.push({ ...region, x0: left, x1: right, ...(rule === null ? {} : { rightLimit: right }), afterRule: cut });
      if (rule !== null) left = rule.end + 2;
    }
  }
  return out;
}
