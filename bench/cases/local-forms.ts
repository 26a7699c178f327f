/**
 * The local engine on CMS-1500 forms drawn from the public form (test/local/cms1500-form.ts): several filled
 * instances, each rendered as a clean 200-DPI scan and degraded by the sample's photo and fax tiers, read
 * through PP-OCR and the form's own schema (check boxes, MM | DD | YY dates, dollars | cents), scored with
 * docbench's own extraction scorer. Field F1 per tier and over all; the goal for real forms is 0.85
 * (docs/local-service.md, "Forms"). Then the paraphrase check: the same pages read through each variant of the
 * schema in bench/paraphrases/cms1500/ (other property names and wording, the truth renamed to match), field F1
 * over all forms and its drop from the original schema. And the clean scans once more, each turned a quarter, a
 * half or three quarters round (fed into the scanner the wrong way), which must read as they do upright
 * (docs/local-service.md, "Pages the wrong way up"). These are generated forms, not real unseen scans.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { ScanTier } from '../../src/dataset/generate/scan.js';
import type { AnalysedDocument } from '../../src/local/analyse-document.js';
import { createEngine } from '../../src/local/engine.js';
import { buildExtractResult } from '../../src/local/endpoints.js';
import { silentLogger } from '../../src/logger.js';
import { aggregateExtraction, scoreExtraction } from '../../src/score/index.js';
import type { Json, JsonSchema } from '../../src/types.js';
import { CMS1500_SCHEMA, cms1500Values, renderCms1500 } from '../../test/local/cms1500-form.js';
import type { BenchCase, BenchFigure } from '../harness.js';
import { paraphraseSchema, readParaphraseVariants, renameValue } from '../support/paraphrase-dataset.js';

const SEEDS = [1, 2, 3, 4];
const TIERS: ScanTier[] = ['clean_scan', 'photo', 'fax'];
/** The clean scan of seed i turned clockwise by TURNS[i % 3] degrees. */
const TURNS = [90, 180, 270] as const;
/** Largest drop of field F1 allowed when the schema is paraphrased. */
const PARAPHRASE_TOLERANCE = 0.05;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface ReadForm {
  tier: ScanTier | 'turned';
  values: Json;
  pages: AnalysedDocument['pages'];
}

/** Every form of every tier read once; the schemas are applied to the same pages. */
async function readForms(): Promise<ReadForm[]> {
  const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 2, logger: silentLogger });
  const forms: ReadForm[] = [];
  /** Each seed's clean scan, turned afterwards. */
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
    for (const [seed, upright] of cleanScans) {
      const values = cms1500Values(seed);
      const png = await sharp(upright)
        .rotate(TURNS[seed % TURNS.length]!)
        .png()
        .toBuffer();
      const doc = await engine.analyse({ bytes: png, format: 'png', filename: `cms1500-${seed}-turned.png` });
      forms.push({ tier: 'turned', values: values as unknown as Json, pages: doc.pages });
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

async function measure(): Promise<BenchFigure[]> {
  const read = await readForms();
  const schema = CMS1500_SCHEMA as unknown as JsonSchema;
  const figures: BenchFigure[] = [];
  const turned = read.filter((form) => form.tier === 'turned');
  const forms = read.filter((form) => form.tier !== 'turned');
  const all = forms.map((form) => score(form, schema, form.values));
  for (const tier of TIERS) {
    figures.push({
      name: `field F1, ${tier} (${SEEDS.length} forms)`,
      value: aggregateExtraction(all.filter((_, i) => forms[i]!.tier === tier)).micro.f1,
      unit: 'ratio',
    });
  }
  const cleanF1 = aggregateExtraction(all.filter((_, i) => forms[i]!.tier === 'clean_scan')).micro.f1;
  figures.push({
    name: `field F1 drop, the clean scans turned ${TURNS.join('°, ')}° (${turned.length} forms)`,
    value: cleanF1 - aggregateExtraction(turned.map((form) => score(form, schema, form.values))).micro.f1,
    unit: 'ratio',
    target: { op: '<=', value: 0.01 },
    note: 'against the same forms read upright',
  });
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
