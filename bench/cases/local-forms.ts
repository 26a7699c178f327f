/**
 * The local engine on CMS-1500 forms drawn from the public form (test/local/cms1500-form.ts): several filled
 * instances, each rendered as a clean 200-DPI scan and degraded by the sample's photo and fax tiers, read
 * through PP-OCR and the form's own schema (check boxes, MM | DD | YY dates, dollars | cents), scored with
 * docbench's own extraction scorer. Field F1 per tier and over all; the goal for real forms is 0.85
 * (docs/local-service.md, "Forms"). These are generated forms, not real unseen scans.
 */
import type { ScanTier } from '../../src/dataset/generate/scan.js';
import { createEngine } from '../../src/local/engine.js';
import { buildExtractResult } from '../../src/local/endpoints.js';
import { silentLogger } from '../../src/logger.js';
import { aggregateExtraction, scoreExtraction } from '../../src/score/index.js';
import type { Json, JsonSchema } from '../../src/types.js';
import { CMS1500_SCHEMA, cms1500Values, renderCms1500 } from '../../test/local/cms1500-form.js';
import type { BenchCase, BenchFigure } from '../harness.js';

const SEEDS = [1, 2, 3, 4];
const TIERS: ScanTier[] = ['clean_scan', 'photo', 'fax'];

async function measure(): Promise<BenchFigure[]> {
  const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 2, logger: silentLogger });
  const schema = CMS1500_SCHEMA as unknown as JsonSchema;
  const figures: BenchFigure[] = [];
  const all = [];
  try {
    for (const tier of TIERS) {
      const scores = [];
      for (const seed of SEEDS) {
        const values = cms1500Values(seed);
        const png = await renderCms1500(values, tier, seed);
        const doc = await engine.analyse({ bytes: png, format: 'png', filename: `cms1500-${seed}.png` });
        const result = buildExtractResult(doc.pages, schema, false, 'US');
        const predicted = JSON.parse(result.response as string) as Json;
        scores.push(scoreExtraction(values as unknown as Json, predicted, { schema }));
      }
      all.push(...scores);
      figures.push({
        name: `field F1, ${tier} (${SEEDS.length} forms)`,
        value: aggregateExtraction(scores).micro.f1,
        unit: 'ratio',
      });
    }
  } finally {
    await engine.close();
  }
  figures.push({
    name: `field F1, all ${all.length} forms`,
    value: aggregateExtraction(all).micro.f1,
    unit: 'ratio',
    target: { op: '>=', value: 0.85 },
    note: 'generated from the public form, not real scans',
  });
  return figures;
}

export const cases: BenchCase[] = [
  { id: 'local-forms', title: 'Local engine: CMS-1500 forms drawn from the public form, through PP-OCR', run: measure },
];
