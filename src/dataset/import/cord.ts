/**
 * `cord`: CORD v2 receipts (docs/datasets-import.md, "cord"): `json/<id>.json` (`gt_parse`, `valid_line`, `meta`)
 * and `image/<id>.png`, in `train/`, `dev/` and `test/` folders or one of them. The nested `gt_parse` is the
 * truth, `menu` always a list; the schema is built from the fields present; regions come from `valid_line`.
 */
import path from 'node:path';
import type { DatasetWriter } from './dataset-writer.js';
import type { DatasetImporter, ImportOptions, ImportSummary } from './formats.js';
import { importDocuments, importedCounts, writeDatasetFiles, type SourceDocument } from './import-documents.js';
import { conformToSchema, inferSchema } from './infer-schema.js';
import { boundingRectangle, imagePage, RegionCollector } from './page-geometry.js';
import { filesById, splitFolders, readSourceJson, SourceFile } from './source-file.js';

const FORMAT = 'cord';
const SPLITS = { train: 'train', dev: 'dev', test: 'test' };
/** Lists even where a receipt has one: a receipt's items, and an item's sub-items. */
const LISTS = ['menu', 'menu[].sub', 'void_menu'];

/** CORD's classes (its README's table), by field path without list marks. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  menu: 'The items of the receipt',
  'menu.nm': 'Name of the item',
  'menu.num': 'Identification number of the item',
  'menu.unitprice': 'Unit price of the item',
  'menu.cnt': 'Quantity of the item',
  'menu.discountprice': 'Discounted price of the item',
  'menu.price': 'Total price of the item',
  'menu.itemsubtotal': 'Price of the item after its discount',
  'menu.vatyn': 'Whether the price includes tax',
  'menu.etc': 'Other detail of the item',
  'menu.sub': 'Sub-items of the item',
  'menu.sub.nm': 'Name of the sub-item',
  'menu.sub.unitprice': 'Unit price of the sub-item',
  'menu.sub.cnt': 'Quantity of the sub-item',
  'menu.sub.price': 'Price of the sub-item',
  'menu.sub.etc': 'Other detail of the sub-item',
  void_menu: 'Cancelled items',
  'void_menu.nm': 'Name of the cancelled item',
  'void_menu.price': 'Price of the cancelled item',
  'sub_total.subtotal_price': 'Subtotal',
  'sub_total.discount_price': 'Discount on the whole receipt',
  'sub_total.service_price': 'Service charge',
  'sub_total.othersvc_price': 'Charge other than the service charge',
  'sub_total.tax_price': 'Tax',
  'sub_total.etc': 'Other subtotal line',
  'total.total_price': 'Total price',
  'total.total_etc': 'Other total line',
  'total.cashprice': 'Amount paid in cash',
  'total.changeprice': 'Change given',
  'total.creditcardprice': 'Amount paid by card',
  'total.emoneyprice': 'Amount paid in e-money or points',
  'total.menutype_cnt': 'Number of kinds of items',
  'total.menuqty_cnt': 'Number of items',
};

interface CordDocument extends SourceDocument {
  json: string;
}

async function listFolder(folder: string, split: string | undefined): Promise<CordDocument[]> {
  const images = await filesById(path.join(folder, 'image'), ['.png', '.jpg', '.jpeg']);
  const jsons = await filesById(path.join(folder, 'json'), ['.json']);
  // CORD's receipts come from Indonesian shops and restaurants, as its paper describes.
  const tags: Record<string, string> = { source: FORMAT, language: 'id', ...(split === undefined ? {} : { split }) };
  const ids = [...new Set([...images.keys(), ...jsons.keys()])].sort();
  return ids.map((id) => ({
    id,
    file: images.get(id) ?? null,
    json: jsons.get(id) ?? '',
    missing: jsons.has(id) ? null : 'no json/ annotation',
    tags,
  }));
}

interface ReadReceipt {
  id: string;
  source: SourceFile;
  gtParse: Record<string, unknown>;
}

async function readReceipt(document: CordDocument & { file: string }, writer: DatasetWriter): Promise<ReadReceipt> {
  const source = new SourceFile(document.json, FORMAT);
  const root = source.object(await readSourceJson(document.json, FORMAT), 'the file');
  const gtParse = source.object(root.gt_parse, 'gt_parse');
  const page = await imagePage(document.file);
  const regions = new RegionCollector();
  for (const [index, line] of source.array(root.valid_line ?? [], 'valid_line').entries()) {
    const at = `valid_line[${index}]`;
    const words = source.array(source.object(line, at).words, `${at}.words`);
    const coordinates: number[] = [];
    const texts: string[] = [];
    for (const [w, word] of words.entries()) {
      const wordAt = `${at}.words[${w}]`;
      const { quad, text } = source.object(word, wordAt);
      const corners = source.object(quad, `${wordAt}.quad`);
      for (const corner of [1, 2, 3, 4]) {
        coordinates.push(
          source.number(corners[`x${corner}`], `${wordAt}.quad.x${corner}`),
          source.number(corners[`y${corner}`], `${wordAt}.quad.y${corner}`),
        );
      }
      texts.push(source.string(text, `${wordAt}.text`));
    }
    if (coordinates.length > 0) regions.add(page, boundingRectangle(coordinates), texts.join(' '));
  }
  const pages = regions.result();
  if (pages) await writer.writeTruthRegions(document.id, pages);
  return { id: document.id, source, gtParse };
}

function describe(fieldPath: string): string | undefined {
  return DESCRIPTIONS[fieldPath.replaceAll('[]', '')];
}

function readme(summary: ImportSummary, options: ImportOptions): string {
  return `# CORD v2 (receipts), imported by docbench

Source: CORD, a consolidated receipt dataset for post-OCR parsing (Park et al., 2019; github.com/clovaai/cord),
version 2. Licence: CC BY 4.0, as the source states.

## Mapping

| docbench | from |
|---|---|
| document id | the file name without extension (\`receipt_00000\`) |
| \`documents/<id>.png\` | \`image/<id>.png\`, copied unchanged |
| \`truth/<id>.json\` | \`gt_parse\`, nested as it is; \`menu\`, \`menu[].sub\` and \`void_menu\` always lists (a receipt with one item has a list of one); any field that is a list in one receipt is a list in all |
| \`schema.json\` | the fields present in the imported receipts, strings, described with CORD's class names |
| \`truth/<id>.regions.json\` | one region per \`valid_line\`: the bounding rectangle of its words' quads, its words as the content, in inches at the resolution the image states (72 pixels an inch when it states none) |
| tags | \`source: cord\`, \`language: id\`, \`split\` (\`train\`, \`dev\` or \`test\`, from the folder or \`--split\`) |

No truth markdown is written: CORD's lines are grouped by field, not in reading order. An image without its
json/ file is skipped.

${importedCounts(summary, options)}`;
}

export const cordImporter: DatasetImporter = {
  async importInto(source, writer, options) {
    const candidates: CordDocument[] = [];
    for (const { folder, split } of await splitFolders(source, options.split, SPLITS)) {
      candidates.push(...(await listFolder(folder, split)));
    }
    const { summary, written, manifest } = await importDocuments(candidates, writer, options, (document) =>
      readReceipt(document, writer),
    );
    const schema = inferSchema(
      written.map((receipt) => receipt.gtParse),
      describe,
      LISTS,
    );
    for (const receipt of written) {
      await writer.writeTruthJson(receipt.id, conformToSchema(receipt.gtParse, schema, receipt.source, 'gt_parse'));
    }
    await writer.writeSchema({ ...schema, description: 'A receipt parsed into CORD v2 fields, values as printed' });
    await writeDatasetFiles(
      writer,
      {
        name: 'cord',
        description: 'CORD v2 receipts: nested fields (gt_parse) and text lines',
        readme: (done) => readme(done, options),
      },
      manifest,
      summary,
    );
    return summary;
  },
};
