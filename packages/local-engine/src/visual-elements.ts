/**
 * Signatures and figures, found with documented heuristics (docs/reference.md):
 * - a signature is non-text ink in the area right of or above a line that reads "signature"/"signed", or a
 *   typed conformed signature ("/s/ Name") on such a line;
 * - a figure is an image painted on a PDF page (from the operator list), or on scanned pages a dense ink
 *   region of at least ~0.4 × 0.4 in that is not text and not a ruled grid.
 */
import type { AnalysedDocument } from './analyse-document.js';
import { findInkRegions, type InkRegion } from './ink-regions.js';
import type { PageLayout, PointBox } from './layout/types.js';

const SIGNATURE_LABEL = /\b(signature|signed|sign here)\b/i;
/** "Signature on file" means no ink is expected. */
const ON_FILE = /\bon\s+file\b|\bSOF\b/i;

/** A signature found on a page. */
export interface FoundSignature {
  page: number;
  box: PointBox;
  /** 0–1: how signature-like the evidence is. */
  confidence: number;
  /** The label it was found beside. */
  label: string;
  method: 'ink-near-label' | 'typed-conformed';
}

/** A figure (picture, chart, logo, code symbol) found on a page. */
export interface FoundFigure {
  page: number;
  box: PointBox;
  source: 'embedded-image' | 'ink-region';
}

function intersects(a: PointBox, b: PointBox): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

function textMask(page: PageLayout, minConfidence: number): PointBox[] {
  return page.lines.filter((l) => l.confidence >= minConfidence).map((l) => l.box);
}

/** Finds signatures on every page. */
export async function findSignatures(doc: AnalysedDocument): Promise<FoundSignature[]> {
  const found: FoundSignature[] = [];
  for (const page of doc.pages) {
    const labels = page.lines.filter((l) => SIGNATURE_LABEL.test(l.text) && !ON_FILE.test(l.text));
    if (labels.length === 0) continue;
    const typed = labels.filter((l) => /\/s\/\s*\S/.test(l.text));
    for (const line of typed)
      found.push({ page: page.page, box: line.box, confidence: 0.7, label: line.text, method: 'typed-conformed' });
    // Low-confidence OCR words over a signature are usually the signature itself: do not mask them.
    const ink = findInkRegions(await doc.raster(page.page), textMask(page, 50), 3);
    for (const label of labels) {
      if (typed.includes(label)) continue;
      const h = label.box.y1 - label.box.y0;
      const right: PointBox = {
        x0: label.box.x1,
        y0: label.box.y0 - 36,
        x1: label.box.x1 + 288,
        y1: label.box.y1 + h * 0.3,
      };
      const above: PointBox = {
        x0: label.box.x0 - 14,
        y0: label.box.y0 - 43,
        x1: label.box.x0 + 252,
        y1: label.box.y0,
      };
      const strokes = ink.filter(
        (r: InkRegion) =>
          (intersects(r.box, right) || intersects(r.box, above)) &&
          r.box.y1 - r.box.y0 >= 7 &&
          r.box.x1 - r.box.x0 >= 18 &&
          r.box.x1 - r.box.x0 <= 360 &&
          r.box.y1 - r.box.y0 <= 90 &&
          r.fill >= 0.03 &&
          r.fill <= 0.6,
      );
      if (strokes.length === 0) continue;
      const box = {
        x0: Math.min(...strokes.map((s) => s.box.x0)),
        y0: Math.min(...strokes.map((s) => s.box.y0)),
        x1: Math.max(...strokes.map((s) => s.box.x1)),
        y1: Math.max(...strokes.map((s) => s.box.y1)),
      };
      // Handwriting fills 5–35% of its box; solid blocks and hairlines are less signature-like.
      const fill = strokes.reduce((s, r) => s + r.fill, 0) / strokes.length;
      const confidence = Math.round(100 * (fill >= 0.05 && fill <= 0.35 ? 0.8 : 0.5)) / 100;
      found.push({ page: page.page, box, confidence, label: label.text, method: 'ink-near-label' });
    }
  }
  return found;
}

/** Finds figures on every page. */
export async function findFigures(doc: AnalysedDocument): Promise<FoundFigure[]> {
  const found: FoundFigure[] = [];
  for (const page of doc.pages) {
    const pageArea = page.width * page.height;
    const embedded = (await doc.embeddedImages(page.page)).filter(
      (b) => (b.x1 - b.x0) * (b.y1 - b.y0) < 0.85 * pageArea,
    );
    for (const box of embedded) found.push({ page: page.page, box, source: 'embedded-image' });
    if (page.source !== 'ocr') continue;
    const regions = findInkRegions(await doc.raster(page.page), textMask(page, 0), 2);
    for (const region of regions) {
      const w = region.box.x1 - region.box.x0;
      const h = region.box.y1 - region.box.y0;
      if (w < 29 || h < 29 || w * h > 0.85 * pageArea || region.fill < 0.2) continue;
      if (found.some((f) => f.page === page.page && intersects(f.box, region.box))) continue;
      found.push({ page: page.page, box: region.box, source: 'ink-region' });
    }
  }
  return found;
}
