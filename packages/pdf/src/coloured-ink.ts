/**
 * A page printed in one coloured ink, read as if that ink were black. Forms made to be read by machines (the
 * CMS-1500 claim form, many tax and bank forms) print their rules, boxes and captions in a light "dropout" red
 * or green, and the data is typed in black. Converted to grey by luminance, a light red rule is only ~30% darker
 * than the paper and its anti-aliased edges less, so the rules and check boxes read from the pixels are lost;
 * the black data is untouched (packages/local-engine/CHANGELOG.md, "Forms printed in a dropout colour").
 *
 * Only a page whose ink is mostly one colour changes: a black page with a blue link or a red logo reads exactly
 * as before, as even a few changed pixels change what the OCR reads elsewhere on the page. Colour is measured
 * against the paper's own colour, so a photo's warm or grey paper is not taken for ink.
 */

/**
 * Saturation of a pixel's absorption (paper minus pixel, per channel): its strongest channel's minus its weakest,
 * over its strongest. Black and grey ink absorb every channel alike (0); a red absorbs green and blue, not red (~1).
 * Below NEUTRAL a pixel is neutral, from COLOURED on wholly coloured ink, partly between.
 */
const NEUTRAL = 0.2;
const COLOURED = 0.5;
/** A pixel absorbing less than this in every channel is paper. */
const INK_ABSORPTION = 32;
/** Share of the ink pixels that must be coloured for the page to count as printed in a colour. */
const COLOURED_SHARE = 0.35;
/**
 * Least absorption of the coloured ink's median pixel: below it the colour is a tint (a table's shaded rows, a
 * screenshot's coloured anti-aliasing), not ink, and is left alone.
 */
const INK_MEDIAN = 64;
/** Absorption the coloured ink's typical pixel is stretched to: about that of black print's anti-aliased strokes. */
const TARGET_ABSORPTION = 190;
/** Largest stretch: a page's faint tint must not become a black smear. */
const MAX_STRETCH = 4;

interface Absorption {
  /** The strongest channel's absorption (0 paper … 255 the ink takes all that channel's light). */
  strength: number;
  /** (Strongest − weakest channel) / strongest: 0 for black or grey ink, 0 for paper. */
  saturation: number;
  /** Which of HUE_BINS equal arcs of the colour wheel the absorption's hue falls in. */
  hueBin: number;
}

/** Pixels of a page looked at to decide whether it is printed in a colour. */
const SURVEY_PIXELS = 500_000;

/** Arcs the colour wheel is cut into to find the ink's colour. */
const HUE_BINS = 12;
/**
 * Adjacent arcs (here 90° of hue) that must hold DOMINANT_HUE of the coloured pixels: one ink has one hue, while a
 * screenshot's sub-pixel anti-aliasing fringes each black stroke with two opposite hues, and a page of coloured
 * charts has many.
 */
const HUE_WINDOW = 3;
const DOMINANT_HUE = 0.75;

function absorptionAt(rgb: Uint8Array | Uint8ClampedArray, i: number, paper: readonly number[]): Absorption {
  const r = Math.max(0, paper[0]! - rgb[i]!);
  const g = Math.max(0, paper[1]! - rgb[i + 1]!);
  const b = Math.max(0, paper[2]! - rgb[i + 2]!);
  const strength = Math.max(r, g, b);
  const spread = strength - Math.min(r, g, b);
  if (spread === 0) return { strength, saturation: 0, hueBin: 0 };
  // The usual hexagonal hue, in sixths of the wheel.
  const sixths =
    strength === r ? ((g - b) / spread + 6) % 6 : strength === g ? (b - r) / spread + 2 : (r - g) / spread + 4;
  return { strength, saturation: spread / strength, hueBin: Math.floor((sixths / 6) * HUE_BINS) % HUE_BINS };
}

/** The lowest level of a histogram below which fewer than `wanted` of its counts lie. */
function levelHolding(histogram: Uint32Array, wanted: number): number {
  let level = 0;
  for (let seen = 0; level < 255 && seen + histogram[level]! < wanted; level++) seen += histogram[level]!;
  return level;
}

/** The paper's colour: each channel's 90th percentile over a sample of the page (ink covers far less than a tenth). */
function paperColour(rgb: Uint8Array | Uint8ClampedArray, channels: number, pixels: number): number[] {
  const step = Math.max(1, Math.floor(pixels / SURVEY_PIXELS));
  return [0, 1, 2].map((channel) => {
    const histogram = new Uint32Array(256);
    let count = 0;
    for (let p = 0; p < pixels; p += step, count++) histogram[rgb[p * channels + channel]!]!++;
    return levelHolding(histogram, count * 0.9);
  });
}

interface InkSurvey {
  /** Pixels absorbing at least INK_ABSORPTION. */
  ink: number;
  /** Of those, the coloured ones by hue arc, and each arc's absorption histogram. */
  byHue: { count: number; strengths: Uint32Array }[];
}

function surveyInk(rgb: Uint8Array | Uint8ClampedArray, channels: number, pixels: number, paper: number[]): InkSurvey {
  const byHue = Array.from({ length: HUE_BINS }, () => ({ count: 0, strengths: new Uint32Array(256) }));
  let ink = 0;
  // A sample is enough to judge the page, and keeps the cost off the pages that are not changed.
  const step = Math.max(1, Math.floor(pixels / SURVEY_PIXELS));
  for (let p = 0; p < pixels; p += step) {
    const { strength, saturation, hueBin } = absorptionAt(rgb, p * channels, paper);
    if (strength < INK_ABSORPTION) continue;
    ink++;
    if (saturation < COLOURED) continue;
    byHue[hueBin]!.count++;
    byHue[hueBin]!.strengths[strength]!++;
  }
  return { ink, byHue };
}

/** The arcs of the page's one coloured ink and how much to stretch its absorption, or undefined if it has none. */
function colouredInk(survey: InkSurvey): { arcs: Set<number>; stretch: number } | undefined {
  const total = survey.byHue.reduce((sum, bin) => sum + bin.count, 0);
  if (survey.ink === 0 || total < survey.ink * COLOURED_SHARE) return undefined;
  let best = 0;
  let bestCount = -1;
  for (let first = 0; first < HUE_BINS; first++) {
    let count = 0;
    for (let k = 0; k < HUE_WINDOW; k++) count += survey.byHue[(first + k) % HUE_BINS]!.count;
    if (count > bestCount) [best, bestCount] = [first, count];
  }
  if (bestCount < total * DOMINANT_HUE) return undefined;
  const arcs = new Set(Array.from({ length: HUE_WINDOW }, (_, k) => (best + k) % HUE_BINS));
  const strengths = new Uint32Array(256);
  for (const arc of arcs) {
    const own = survey.byHue[arc]!.strengths;
    for (let level = 0; level < 256; level++) strengths[level]! += own[level]!;
  }
  const median = levelHolding(strengths, bestCount / 2);
  if (median < INK_MEDIAN) return undefined;
  const stretch = Math.min(MAX_STRETCH, TARGET_ABSORPTION / median);
  return stretch > 1 ? { arcs, stretch } : undefined;
}

/**
 * Darkens, in place, the coloured ink of `grey` (the page converted by luminance) when most of the page's ink is
 * one colour: each pixel of that colour takes the grey of its absorption stretched so that the ink's median reads
 * as dark as black print. `rgb` holds the same pixels with `channels` channels each (3 or 4, red first).
 * Returns whether the page was changed.
 */
export function darkenColouredInk(grey: Uint8Array, rgb: Uint8Array | Uint8ClampedArray, channels: number): boolean {
  const pixels = grey.length;
  const paper = paperColour(rgb, channels, pixels);
  const found = colouredInk(surveyInk(rgb, channels, pixels, paper));
  if (!found) return false;
  const paperGrey = 0.299 * paper[0]! + 0.587 * paper[1]! + 0.114 * paper[2]!;
  for (let p = 0, i = 0; p < pixels; p++, i += channels) {
    const { strength, saturation, hueBin } = absorptionAt(rgb, i, paper);
    if (strength < INK_ABSORPTION || saturation <= NEUTRAL || !found.arcs.has(hueBin)) continue;
    const share = Math.min(1, (saturation - NEUTRAL) / (COLOURED - NEUTRAL));
    const darkened = Math.max(0, paperGrey - strength * found.stretch);
    const own = grey[p]!;
    if (darkened < own) grey[p] = Math.round(own - share * (own - darkened));
  }
  return true;
}
