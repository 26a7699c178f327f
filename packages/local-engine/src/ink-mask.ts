/**
 * Which pixels of a page raster are ink, judged against the paper around them rather than one fixed grey level.
 * A photo's paper is grey and shaded toward a corner, and its blurred rules are only 35–45% darker than the
 * paper (grey 125–140 on 210); a deskewed fax spreads each one-pixel rule over two half-grey pixels. A fixed
 * cut at grey 140 loses both, and with them the check boxes and form rules read from the pixels
 * (CHANGELOG.md, "Forms: ruled boxes and check boxes").
 */
import type { GreyPage } from '@docbench/pdf';

/** Side of the blocks the paper's brightness is estimated in, in inches: wider than any stroke. */
const BLOCK_IN = 0.125;
/**
 * Percentile of a block's pixels taken as its paper: ink covers well under a tenth of a block, except in bold
 * headings and filled areas, which are not what the mask is for (rules, check boxes).
 */
const PAPER_PERCENTILE = 0.9;
/** A pixel is ink when darker than this share of its paper. */
const INK_SHARE = 0.7;
/** Pixels darker than this share of their paper are some kind of ink (a stroke's faint edge included). */
const SOME_INK = 0.85;
/** The page's dark ink: this percentile of its ink pixels, darkest first. */
const DARK_INK_PERCENTILE = 0.1;

export type InkRaster = Pick<GreyPage, 'width' | 'height' | 'pixels' | 'dpi'>;

/** A page's ink: 1 where a pixel is ink, row-major. */
export interface InkPage {
  width: number;
  height: number;
  mask: Uint8Array;
}

/**
 * The paper's brightness of each block: its PAPER_PERCENTILE pixel. Each block on its own: a photo's paper
 * meets the white margin that deskewing adds at a sharp edge, where a neighbour's white would make grey paper ink.
 */
function paperGrid(page: InkRaster, block: number): { grid: Float32Array; cols: number; rows: number } {
  const cols = Math.ceil(page.width / block);
  const rows = Math.ceil(page.height / block);
  const own = new Float32Array(cols * rows);
  const histogram = new Uint32Array(256);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      histogram.fill(0);
      const x1 = Math.min(page.width, (bx + 1) * block);
      const y1 = Math.min(page.height, (by + 1) * block);
      for (let y = by * block; y < y1; y++) {
        const row = y * page.width;
        for (let x = bx * block; x < x1; x++) histogram[page.pixels[row + x]!]!++;
      }
      const wanted = (x1 - bx * block) * (y1 - by * block) * PAPER_PERCENTILE;
      let seen = 0;
      let level = 0;
      while (level < 255 && seen + histogram[level]! < wanted) seen += histogram[level++]!;
      own[by * cols + bx] = level;
    }
  }
  return { grid: own, cols, rows };
}

/** Grids and masks already computed, by the pixels they were computed from, then by what they depend on. */
const computed = new WeakMap<Uint8Array, Map<string, unknown>>();

function once<T>(pixels: Uint8Array, key: string, compute: () => T): T {
  let byKey = computed.get(pixels);
  if (!byKey) {
    byKey = new Map();
    computed.set(pixels, byKey);
  }
  if (!byKey.has(key)) byKey.set(key, compute());
  return byKey.get(key) as T;
}

/**
 * Calls `visit` with each row's first pixel index and the paper's brightness along the row: the block grid
 * interpolated between block centres, so shading has no steps. (A row at a time: a level per pixel would hold
 * eight bytes a pixel, and a call per pixel costs more than the comparison it feeds.)
 */
function forEachRowOnPaper(page: InkRaster, visit: (rowStart: number, paper: Float64Array) => void): void {
  const block = Math.max(8, Math.round(page.dpi * BLOCK_IN));
  const { grid, cols, rows } = once(page.pixels, `paper/${block}`, () => paperGrid(page, block));
  const paper = new Float64Array(page.width);
  for (let y = 0; y < page.height; y++) {
    const gy = Math.min(rows - 1, Math.max(0, (y + 0.5) / block - 0.5));
    const y0 = Math.floor(gy);
    const y1 = Math.min(rows - 1, y0 + 1);
    const fy = gy - y0;
    for (let x = 0; x < page.width; x++) {
      const gx = Math.min(cols - 1, Math.max(0, (x + 0.5) / block - 0.5));
      const x0 = Math.floor(gx);
      const x1 = Math.min(cols - 1, x0 + 1);
      const fx = gx - x0;
      const top = grid[y0 * cols + x0]! * (1 - fx) + grid[y0 * cols + x1]! * fx;
      const bottom = grid[y1 * cols + x0]! * (1 - fx) + grid[y1 * cols + x1]! * fx;
      paper[x] = top * (1 - fy) + bottom * fy;
    }
    visit(y * page.width, paper);
  }
}

/** The page's ink, 1 where a pixel is darker than `share` of its paper (computed once per pixels, share and resolution). */
export function inkOf(page: InkRaster, share = INK_SHARE): InkPage {
  const mask = once(page.pixels, `ink/${share}/${page.dpi}`, () => {
    const ink = new Uint8Array(page.width * page.height);
    forEachRowOnPaper(page, (rowStart, paper) => {
      for (let x = 0; x < page.width; x++) if (page.pixels[rowStart + x]! < paper[x]! * share) ink[rowStart + x] = 1;
    });
    return ink;
  });
  return { width: page.width, height: page.height, mask };
}

/**
 * The share of its paper below which a pixel is ink, for a page whose ink may have lost its contrast: halfway
 * between the paper and the page's dark ink (the darkest tenth of the pixels darker than SOME_INK of their
 * paper), and never stricter than INK_SHARE. A sharp scan's ink is nearly black, and the share stays
 * INK_SHARE; on a page blurred by 2 px its darkest strokes reach only 0.6 of the paper and its thin rules 0.73,
 * lighter than INK_SHARE, and with them every check box would be lost (CHANGELOG.md, "Blurred pages").
 */
export function contrastInkShare(page: InkRaster): number {
  const histogram = new Uint32Array(101);
  let candidates = 0;
  forEachRowOnPaper(page, (rowStart, paper) => {
    for (let x = 0; x < page.width; x++) {
      const ratio = page.pixels[rowStart + x]! / Math.max(1, paper[x]!);
      if (ratio >= SOME_INK) continue;
      histogram[Math.round(ratio * 100)]!++;
      candidates++;
    }
  });
  let seen = 0;
  let percent = 0;
  while (percent < 100 && seen + histogram[percent]! < candidates * DARK_INK_PERCENTILE) seen += histogram[percent++]!;
  return Math.max(INK_SHARE, (1 + percent / 100) / 2);
}
