/**
 * The local engine on CMS-1500 forms drawn from the public form (packages/local-engine/test/cms1500-form.ts): several filled
 * instances, each rendered as a clean 200-DPI scan and degraded by the sample's photo and fax tiers, read
 * through PP-OCR and the form's own schema (check boxes, MM | DD | YY dates, dollars | cents), scored with
 * docbench's own extraction scorer. Field F1 per tier and over all; the goal for real forms is 0.85
 * (packages/local-engine/CHANGELOG.md, "Forms"). Then the paraphrase check: the same pages read through each variant of the
 * schema in bench/paraphrases/cms1500/ (other property names and wording, the truth renamed to match), field F1
 * over all forms and its drop from the original schema. And copies of the clean scans as real scans also arrive:
 * each turned a quarter, a half or three quarters round (fed into the scanner the wrong way), which must read as
 * they do upright (packages/local-engine/CHANGELOG.md, "Pages the wrong way up"); saved stating 72 DPI, an image writer's
 * default, which must read as they do at the 200 DPI they were scanned at ("Resolution"); blurred by 2 px,
 * out of focus ("Blurred pages"); and resampled to 85 DPI, as a form saved small arrives ("Small text"). These
 * are generated forms, not real unseen scans.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { ScanTier } from '../../src/dataset/generate/scan.js';
import {
  type AnalysedDocument,
  buildExtractResult,
  createEngine,
  silentLogger,
} from '@docbench/local-engine/in-process';
import { aggregateExtraction, scoreExtraction } from '../../src/score/index.js';
import type { Json, JsonSchema } from '../../src/types.js';
import {
  CMS1500_SCHEMA,
  cms1500Values,
  renderCms1500,
  renderCms1500Printed,
} from '../../packages/local-engine/test/cms1500-form.js';
import type { BenchCase, BenchFigure } from '../harness.js';
import { paraphraseSchema, readParaphraseVariants, renameValue } from '../support/paraphrase-dataset.js';

const SEEDS = [1, 2, 3, 4];
const TIERS: ScanTier[] = ['clean_scan', 'photo', 'fax'];
/** The clean scan of seed i turned clockwise by TURNS[i % 3] degrees. */
const TURNS = [90, 180, 270] as const;
/** Blur of the out-of-focus copies, Gaussian σ in pixels of the 200-DPI scan. */
const BLUR_PX = 2;

/** Resolution of the low-resolution copies, DPI: a form saved or sent at a fraction of its scan's. */
const LOW_DPI = 85;

/** A light pinkish dropout red, as claim forms are printed in so that scanners made for them leave the form out. */
const DROPOUT_RED = [240, 160, 200] as const;

/**
 * Points right and down the values are typed off the form's boxes: a claim printed onto a pre-printed form a
 * couple of millimetres out, the X marks half outside their boxes.
 */
const OFF_REGISTER = [4, 3] as const;

type Copy = 'turned' | 'stating 72 DPI' | 'blurred' | 'resampled to 85 DPI' | 'in dropout red' | 'typed off register';
/**
 * How each copy is made from a clean scan (the dropout-red and off-register ones are the same form printed so and
 * scanned again).
 */
const COPIES: Record<Copy, (png: Buffer, seed: number) => Promise<Buffer>> = {
  turned: (png, seed) =>
    sharp(png)
      .rotate(TURNS[seed % TURNS.length]!)
      .png()
      .toBuffer(),
  'stating 72 DPI': (png) => sharp(png).withMetadata({ density: 72 }).png().toBuffer(),
  blurred: (png) => sharp(png).blur(BLUR_PX).png().toBuffer(),
  'resampled to 85 DPI': async (png) => {
    const { width } = await sharp(png).metadata();
    return sharp(png)
      .resize(Math.round((width! * LOW_DPI) / 200))
      .withMetadata({ density: LOW_DPI })
      .png()
      .toBuffer();
  },
  'in dropout red': (_png, seed) => renderCms1500Printed(cms1500Values(seed), { ink: DROPOUT_RED }),
  'typed off register': (_png, seed) => renderCms1500Printed(cms1500Values(seed), { offset: OFF_REGISTER }),
};
/** Largest drop of field F1 allowed when the schema is paraphrased. */
const PARAPHRASE_TOLERANCE = 0.05;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface ReadForm {
  tier: ScanTier | Copy;
  values: Json;
  pages: AnalysedDocument['pages'];
}

/** Every form of every tier read once; the schemas are applied to the same pages. */
async function readForms(): Promise<ReadForm[]> {
  const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 2, logger: silentLogger });
  const forms: ReadForm[] = [];
  /** Each seed's clean scan, which the copies are made from. */
  const cleanScans = new Map<number, Buffer>();
  try {
    for (const tier of TIERS) {
      for (const seed of SEEDS) {
        const values = cms1500Values(seed);
        const png = await renderCms1500(values, tier, seed);
        const doc = await engine.analyse({ bytes: png, format: 'png', filename: `cms1500-${seed}.png` });
        forms.push({ tier, values: values as unknown as Json, pages: doc.pages });
        if (tier === 'clean_scan') cleanScans.set(seed, png);
      }
    }
    for (const [copy, make] of Object.entries(COPIES) as [Copy, (typeof COPIES)[Copy]][])
      for (const [seed, clean] of cleanScans) {
        const doc = await engine.analyse({
          bytes: await make(clean, seed),
          format: 'png',
          filename: `cms1500-${seed}.png`,
        });
        forms.push({ tier: copy, values: cms1500Values(seed) as unknown as Json, pages: doc.pages });
      }
  } finally {
    await engine.close();
  }
  return forms;
}

function score(form: ReadForm, schema: JsonSchema, truth: Json): ReturnType<typeof scoreExtraction> {
  const result = buildExtractResult(form.pages, schema, false, 'US');
  const predicted = JSON.parse(result.response as string) as Json;
  return scoreExtraction(truth, predicted, { schema });
}

/** Field F1 of one tier or copy of the forms, read through the form's own schema. */
function f1Of(read: ReadForm[], tier: ReadForm['tier'], schema: JsonSchema): number {
  return aggregateExtraction(read.filter((form) => form.tier === tier).map((form) => score(form, schema, form.values)))
    .micro.f1;
}

/**
 * The copies against the clean scans they were made from: turned and stating 72 DPI must read the same; the
 * blurred copies lose what blur takes from the OCR, and are held to the goal for real forms.
 */
function copyFigures(read: ReadForm[], schema: JsonSchema): BenchFigure[] {
  const clean = f1Of(read, 'clean_scan', schema);
  return [
    {
      name: `field F1 drop, the clean scans turned ${TURNS.join('°, ')}° (${SEEDS.length} forms)`,
      value: clean - f1Of(read, 'turned', schema),
      unit: 'ratio',
      target: { op: '<=', value: 0.01 },
      note: 'against the same forms read upright',
    },
    {
      name: `field F1 drop, the clean scans saved stating 72 DPI (${SEEDS.length} forms)`,
      value: clean - f1Of(read, 'stating 72 DPI', schema),
      unit: 'ratio',
      target: { op: '<=', value: 0.01 },
      note: 'against the same forms stating the 200 DPI they were scanned at',
    },
    {
      name: `field F1, the clean scans blurred ${BLUR_PX} px (${SEEDS.length} forms)`,
      value: f1Of(read, 'blurred', schema),
      unit: 'ratio',
      target: { op: '>=', value: 0.85 },
      note: `the same forms sharp: ${clean.toFixed(3)}`,
    },
    {
      name: `field F1 drop, the forms printed in a light dropout red, scanned in colour (${SEEDS.length} forms)`,
      value: clean - f1Of(read, 'in dropout red', schema),
      unit: 'ratio',
      target: { op: '<=', value: 0.01 },
      note: `red ${DROPOUT_RED.join(',')} and black values, against the same forms printed in black`,
    },
    {
      name: `field F1, the values typed ${OFF_REGISTER.join(' pt right, ')} pt down of the boxes (${SEEDS.length} forms)`,
      value: f1Of(read, 'typed off register', schema),
      unit: 'ratio',
      target: { op: '>=', value: 0.85 },
      note: `the X marks half outside their boxes; the same forms typed in register: ${clean.toFixed(3)}`,
    },
    {
      name: `field F1, the clean scans resampled to ${LOW_DPI} DPI (${SEEDS.length} forms)`,
      value: f1Of(read, 'resampled to 85 DPI', schema),
      unit: 'ratio',
      target: { op: '>=', value: 0.85 },
      note: `text about 13 px high, read again upscaled; the same forms at 200 DPI: ${clean.toFixed(3)}`,
    },
  ];
}

async function measure(): Promise<BenchFigure[]> {
  const read = await readForms();
  const schema = CMS1500_SCHEMA as unknown as JsonSchema;
  const figures: BenchFigure[] = [];
  const forms = read.filter((form) => (TIERS as string[]).includes(form.tier));
  const all = forms.map((form) => score(form, schema, form.values));
  for (const tier of TIERS)
    figures.push({ name: `field F1, ${tier} (${SEEDS.length} forms)`, value: f1Of(read, tier, schema), unit: 'ratio' });
  figures.push(...copyFigures(read, schema));
  const original = aggregateExtraction(all).micro.f1;
  figures.push({
    name: `field F1, all ${all.length} forms`,
    value: original,
    unit: 'ratio',
    target: { op: '>=', value: 0.85 },
    note: 'generated from the public form, not real scans',
  });
  // The paraphrase check: the same pages read through each rewritten schema, the truth renamed to match.
  for (const { variant, paraphrase } of await readParaphraseVariants(
    path.join(root, 'bench', 'paraphrases', 'cms1500'),
  )) {
    const said = paraphraseSchema(CMS1500_SCHEMA, paraphrase) as unknown as JsonSchema;
    const f1 = aggregateExtraction(
      forms.map((form) => score(form, said, renameValue(form.values, paraphrase.properties) as Json)),
    ).micro.f1;
    figures.push({
      name: `field F1 drop under the "${variant}" schema, all ${all.length} forms`,
      value: original - f1,
      unit: 'ratio',
      target: { op: '<=', value: PARAPHRASE_TOLERANCE },
      note: `paraphrased F1 ${f1.toFixed(3)}`,
    });
  }
  return figures;
}

export const cases: BenchCase[] = [
  { id: 'local-forms', title: 'Local engine: CMS-1500 forms drawn from the public form, through PP-OCR', run: measure },
];
