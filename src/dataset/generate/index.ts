/**
 * `docbench dataset generate`: writes the synthetic medical-billing sample (see sample-files.ts README).
 * One seeded stream per document (forked by purpose) makes the output reproducible byte for byte.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import type { JsonObject } from '../../types.js';
import {
  BASELINE_DIR,
  CONTEXT_FILE,
  DOCUMENTS_DIR,
  MANIFEST_FILE,
  README_FILE,
  SCHEMA_FILE,
  TRUTH_DIR,
} from '../format.js';
import { buildBaselineJson, buildBaselineMarkdown } from './baseline.js';
import { DOC_TYPES, makeClaim, type DocType } from './claim.js';
import { layoutClaim } from './documents.js';
import type { Layout } from './layout.js';
import { createRandom, type Random } from './prng.js';
import { renderImagePdf, renderLayoutPdf } from './render-pdf.js';
import { renderPageRaster } from './render-raster.js';
import { SAMPLE_COMPARATORS, SAMPLE_CONTEXT, SAMPLE_README, SAMPLE_SCHEMA } from './sample-files.js';
import { degradePage, encodePage, encodeTiff, SCAN_PROFILES, TIERS, type ScanTier, type Tier } from './scan.js';
import { buildTruthJson, buildTruthMarkdown, buildTruthRegions } from './truth.js';
import { SAMPLE_DEFAULT_COUNT, SAMPLE_DEFAULT_SEED } from './defaults.js';

const GENERATOR_NAME = 'docbench-sample-claims@1';

export interface GenerateSampleOptions {
  /** Number of documents. @default 36 */
  count?: number;
  /** PRNG seed. @default 20261121 */
  seed?: number;
  logger?: Logger;
}

/** What a generated document is, before it is drawn. */
export interface DocumentPlan {
  id: string;
  docType: DocType;
  tier: Tier;
  /** The file format wanted; multi-page documents asked as PNG/JPEG become scanned PDFs. */
  format: 'pdf' | 'png' | 'jpg' | 'jpeg' | 'tiff';
}

const ID_PREFIX: Record<DocType, string> = { cms1500: 'cms1500', itemized_bill: 'bill', eob: 'eob' };
const SCAN_FORMATS: Record<ScanTier, DocumentPlan['format'][]> = {
  clean_scan: ['png', 'pdf', 'tiff'],
  photo: ['jpg', 'jpeg', 'pdf'],
  fax: ['tiff', 'pdf', 'png'],
};

/** Cycles document types fastest, then tiers, then the tier's formats: 36 documents cover every combination. */
export function planDocument(index: number): DocumentPlan {
  const docType = DOC_TYPES[index % DOC_TYPES.length]!;
  const tier = TIERS[Math.floor(index / DOC_TYPES.length) % TIERS.length]!;
  const variant = Math.floor(index / (DOC_TYPES.length * TIERS.length));
  const format = tier === 'digital' ? 'pdf' : SCAN_FORMATS[tier][variant % 3]!;
  return { id: `${ID_PREFIX[docType]}-${String(index + 1).padStart(3, '0')}`, docType, tier, format };
}

/** Documents with a baseline JSON: two in five (≥ a third), spread over types and tiers. */
function hasBaselineJson(index: number): boolean {
  return index % 5 === 0 || index % 5 === 2;
}

async function prepareDirectory(root: string): Promise<void> {
  const entries = await readdir(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw new UsageError(`${root}: cannot be used as the output directory (${error.code ?? error.message})`, {
      subject: root,
      cause: error,
    });
  });
  if (entries.length > 0) {
    // Only a directory this generator wrote may be overwritten: never delete a user's dataset.
    const manifest = await readFile(path.join(root, MANIFEST_FILE), 'utf8').then(
      (text) => JSON.parse(text) as { generator?: { name?: string } },
      () => undefined,
    );
    if (manifest?.generator?.name !== GENERATOR_NAME) {
      throw new UsageError(
        `${root} is not empty and was not written by the sample generator; refusing to overwrite it`,
        { subject: root, hint: 'choose a new or empty directory' },
      );
    }
    for (const entry of [
      DOCUMENTS_DIR,
      TRUTH_DIR,
      BASELINE_DIR,
      MANIFEST_FILE,
      SCHEMA_FILE,
      CONTEXT_FILE,
      README_FILE,
    ]) {
      await rm(path.join(root, entry), { recursive: true, force: true });
    }
  }
  for (const folder of [DOCUMENTS_DIR, TRUTH_DIR, BASELINE_DIR])
    await mkdir(path.join(root, folder), { recursive: true });
}

/** Renders the document file for a plan; returns its extension (a PNG/JPEG plan with several pages becomes a scanned PDF). */
async function renderDocument(
  plan: DocumentPlan,
  layout: Layout,
  random: Random,
): Promise<{ bytes: Buffer; extension: string }> {
  const title = `${plan.id} (synthetic sample)`;
  if (plan.tier === 'digital') return { bytes: await renderLayoutPdf(layout, title), extension: 'pdf' };
  const tier = plan.tier;
  const dpi = SCAN_PROFILES[tier].dpi;
  const pages = [];
  for (const [index, page] of layout.pages.entries())
    pages.push(await degradePage(renderPageRaster(page, dpi), tier, random.fork(`page-${index}`)));
  if (plan.format === 'tiff') return { bytes: await encodeTiff(pages, tier), extension: 'tif' };
  if (plan.format === 'pdf' || pages.length > 1) {
    // Scanned PDF: JPEG pages for greyscale tiers, lossless PNG for bilevel fax pages.
    const images = await Promise.all(pages.map((page) => encodePage(page, tier === 'fax' ? 'png' : 'jpeg', tier)));
    return { bytes: await renderImagePdf(images, layout.pages[0]!, title), extension: 'pdf' };
  }
  const format = plan.format === 'png' ? 'png' : 'jpeg';
  return { bytes: await encodePage(pages[0]!, format, tier), extension: plan.format };
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Writes the sample dataset into `dir` (created; must be empty or a previous output of this generator). */
export async function generateSampleDataset(
  dir: string,
  options: GenerateSampleOptions = {},
): Promise<{ documents: number }> {
  const count = options.count ?? SAMPLE_DEFAULT_COUNT;
  const seed = options.seed ?? SAMPLE_DEFAULT_SEED;
  const logger = options.logger ?? silentLogger;
  if (!Number.isInteger(count) || count < 1 || count > 1000)
    throw new UsageError(`--count ${count}: give a whole number from 1 to 1000`, { subject: '--count' });
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new UsageError(`--seed ${seed}: give a whole number from 0 to 4294967295`, { subject: '--seed' });
  const root = path.resolve(dir);
  await prepareDirectory(root);
  const random = createRandom(seed);
  const entries: JsonObject[] = [];
  for (let index = 0; index < count; index++) {
    const plan = planDocument(index);
    const stream = random.fork(`document-${index}`);
    const claim = makeClaim(stream.fork('claim'), plan.docType);
    const layout = layoutClaim(claim, stream.fork('layout'));
    const { bytes, extension } = await renderDocument(plan, layout, stream.fork('scan'));
    const file = `${DOCUMENTS_DIR}/${plan.id}.${extension}`;
    await writeFile(path.join(root, file), bytes);
    const truth = buildTruthJson(claim);
    await writeFile(path.join(root, TRUTH_DIR, `${plan.id}.json`), json(truth));
    await writeFile(path.join(root, TRUTH_DIR, `${plan.id}.md`), buildTruthMarkdown(layout));
    await writeFile(path.join(root, TRUTH_DIR, `${plan.id}.regions.json`), json(buildTruthRegions(layout)));
    await writeFile(
      path.join(root, BASELINE_DIR, `${plan.id}.md`),
      buildBaselineMarkdown(layout, plan.tier, stream.fork('baseline-md')),
    );
    if (hasBaselineJson(index))
      await writeFile(
        path.join(root, BASELINE_DIR, `${plan.id}.json`),
        json(buildBaselineJson(truth, plan.tier, stream.fork('baseline-json'))),
      );
    entries.push({
      id: plan.id,
      file,
      tags: { tier: plan.tier, doc_type: plan.docType, pages: String(layout.pages.length) },
    });
    logger.debug(
      `generated ${file} (${plan.tier}, ${layout.pages.length} page${layout.pages.length === 1 ? '' : 's'}, ${bytes.length} bytes)`,
    );
  }
  const manifest = {
    name: 'sample-claims',
    version: '1',
    description:
      'Synthetic medical-billing documents (CMS-1500-style claims, itemized statements, EOBs) in four quality tiers, with a simulated incumbent. Generated; see README.md.',
    locale: 'US',
    generator: { name: GENERATOR_NAME, seed, count },
    comparators: SAMPLE_COMPARATORS,
    documents: entries,
  };
  await writeFile(path.join(root, MANIFEST_FILE), json(manifest));
  await writeFile(path.join(root, SCHEMA_FILE), json(SAMPLE_SCHEMA));
  await writeFile(path.join(root, CONTEXT_FILE), SAMPLE_CONTEXT);
  await writeFile(path.join(root, README_FILE), SAMPLE_README);
  logger.info(`wrote ${count} documents to ${root} (seed ${seed})`);
  return { documents: count };
}
