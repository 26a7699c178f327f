/**
 * Ink that is not text: connected components of dark pixels on a page raster after masking every text line.
 * Used for signatures (ink next to a signature label) and figures in scanned pages. Hand-written: a coarse
 * grid and a flood fill are all this needs, and no maintained Node library does it on raw greyscale.
 */
import type { GreyPage } from '@docbench/pdf';
import type { PointBox } from './layout/types.js';

/** A connected region of non-text ink. */
export interface InkRegion {
  /** Points, top-left origin. */
  box: PointBox;
  /** Share of the region's grid cells that hold ink (0–1). */
  fill: number;
}

/** Grid cells of about 1/50 inch; a cell holds ink when one of its pixels is darker than this. */
const CELLS_PER_INCH = 50;
const DARK = 128;

/**
 * Finds ink regions. `mask` boxes (points) are blanked first; `joinCells` dilates so that strokes a few
 * cells apart (the letters of a signature) join one region.
 */
export function findInkRegions(raster: GreyPage, mask: PointBox[], joinCells = 2): InkRegion[] {
  const cell = Math.max(1, Math.round(raster.dpi / CELLS_PER_INCH));
  const gw = Math.ceil(raster.width / cell);
  const gh = Math.ceil(raster.height / cell);
  const ink = new Uint8Array(gw * gh);
  for (let y = 0; y < raster.height; y++) {
    const row = y * raster.width;
    const gy = Math.floor(y / cell) * gw;
    for (let x = 0; x < raster.width; x++) if (raster.pixels[row + x]! < DARK) ink[gy + Math.floor(x / cell)] = 1;
  }
  const pointsPerCell = (cell * 72) / raster.dpi;
  for (const box of mask) {
    const gx0 = Math.max(0, Math.floor((box.x0 - 1) / pointsPerCell));
    const gx1 = Math.min(gw - 1, Math.ceil((box.x1 + 1) / pointsPerCell));
    const gy0 = Math.max(0, Math.floor((box.y0 - 1) / pointsPerCell));
    const gy1 = Math.min(gh - 1, Math.ceil((box.y1 + 1) / pointsPerCell));
    for (let gy = gy0; gy <= gy1; gy++) ink.fill(0, gy * gw + gx0, gy * gw + gx1 + 1);
  }
  const seen = new Uint8Array(gw * gh);
  const regions: InkRegion[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    let minX = gw;
    let minY = gh;
    let maxX = 0;
    let maxY = 0;
    let count = 0;
    stack.push(start);
    seen[start] = 1;
    while (stack.length > 0) {
      const at = stack.pop()!;
      const x = at % gw;
      const y = (at - x) / gw;
      count++;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      for (let dy = -joinCells; dy <= joinCells; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= gh) continue;
        for (let dx = -joinCells; dx <= joinCells; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= gw) continue;
          const next = ny * gw + nx;
          if (ink[next] && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    const area = (maxX - minX + 1) * (maxY - minY + 1);
    regions.push({
      box: {
        x0: minX * pointsPerCell,
        y0: minY * pointsPerCell,
        x1: (maxX + 1) * pointsPerCell,
        y1: (maxY + 1) * pointsPerCell,
      },
      fill: count / area,
    });
  }
  return regions;
}
