/**
 * Binarised pages (a fax, a scanner's black-and-white mode): every pixel is pure black or pure white, so
 * letters have staircase edges, thin strokes break into pixel chains and the page carries specks of toner and
 * line noise. PP-OCR's recogniser was trained on greyscale text; such a page is read better once it is
 * upscaled (smoothing the staircases into grey edges) and passed through a 3×3 median (specks gone, strokes
 * kept). Measured on the sample's fax tier and checked on the clean-scan and photo tiers, which it would lower
 * (CHANGELOG.md, "Faxed pages"), hence only for pages that were binarised.
 */
import type { GreyPage } from '@docbench/pdf';
import { upscalePage } from './upscale-page.js';

/**
 * A page is binarised when at least this share of its pixels is pure black (0) or pure white (255). A 1-bit
 * image decodes to 100%; a 1-bit scan inside a PDF, rendered at another resolution, to 93–97% (the renderer
 * greys the edges); scans and photos with grey levels to under 1%.
 */
const MIN_PURE_SHARE = 0.9;
/**
 * Binarised pages are upscaled by half before the median, to at most 300 DPI: at a fax's 150–200 DPI a stroke
 * is one or two pixels wide, which the median alone would erase. Doubling a 150-DPI page instead read the
 * sample's faxes a little better (73.9% against 73.1%) and the bench's CMS-1500 faxes worse (0.821 against
 * 0.867), docs/reference.md.
 */
const SMOOTHING_SCALE = 1.5;
/**
 * 72 DPI is what image writers record when nobody set a resolution (JFIF's and many PNG writers' default); no
 * page is scanned at 72 DPI, so such a page counts as one of unknown resolution. Two black-and-white receipts
 * of the dev set state 72 DPI at 1080 px wide: smoothed, they read worse (field F1 0.875 → 0.750 upscaled by
 * half, 0.267 with the median alone), docs/reference.md.
 */
const DEFAULT_STATED_DPI = 72;
const SMOOTHING_MAX_DPI = 300;

/** Whether the page's pixels are (almost) all pure black or pure white. */
export function isBinarised(page: Pick<GreyPage, 'pixels'>): boolean {
  let pure = 0;
  for (const p of page.pixels) if (p === 0 || p === 255) pure++;
  return page.pixels.length > 0 && pure >= page.pixels.length * MIN_PURE_SHARE;
}

/**
 * The page upscaled (never down, see SMOOTHING_SCALE) and median-filtered, its DPI updated to match; the page
 * itself when its resolution is unknown, as the stroke width the median needs cannot be judged then.
 */
export async function smoothBinarisedPage(page: GreyPage): Promise<GreyPage> {
  if (!page.dpiKnown || page.dpi <= DEFAULT_STATED_DPI) return page;
  return upscalePage(page, Math.max(1, Math.min(SMOOTHING_SCALE, SMOOTHING_MAX_DPI / page.dpi)), 3);
}
