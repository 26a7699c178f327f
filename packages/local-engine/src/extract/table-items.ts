/**
 * The items of an array of objects read from a table: each body row of the tables whose header captions best match
 * the item's properties, a cell coerced per column; rows that sum the ones above (totals, gross and net pay) are
 * not items. Also read for a person's row of a table of people (person-rows.ts).
 */
import levenshtein from 'fast-levenshtein';
import type { JsonObject } from '../contract.js';
import type { PageLayout, TableBlock } from '../layout/types.js';
import { coerceScalar } from './coerce.js';
import type { ExtractOptions } from './extract-fields.js';
import { labelTokens } from './find-values.js';
import { conceptWords } from '../lexicon/lexicon.js';
import { hintOrder, namePart } from './name-parts.js';
import type { ScalarSpec, TableSpec } from './schema-fields.js';
import { headerRowTables } from './header-row-tables.js';
import { readTableHeader, type TableHeader } from './table-header.js';

/** How sure a column is an enum's when its caption prints the enum's values, and only those. */
const VALUES_CAPTION = 0.9;

/**
 * Whether a caption prints an enum's values as its options, slash-joined ("M/F" under a sex column's `S E X`, whose
 * letters the layout may give to the row above): the column holds one of them, whatever the caption's other words.
 */
function printsEnumValues(header: string, column: ScalarSpec): boolean {
  const values = column.enum ?? [];
  if (values.length < 2) return false;
  const wanted = values
    .map((value) => value.toLowerCase())
    .sort()
    .join('/');
  return header.split(/\s+/).some((word) => word.toLowerCase().split('/').sort().join('/') === wanted);
}

/** A column's labels in every wording a table's caption may say them with (columnWordings). */
type Wordings = { text: string; weight: number }[];

function headerSimilarity(header: string, column: ScalarSpec, wordings: Wordings): number {
  // A caption offering alternatives ("Hrs/Qty", "Rate/Price") names the column by any of them.
  const alternatives = header.split(/(?<=\p{L})\s*\/\s*(?=\p{L})/u);
  const captions = alternatives.length > 1 ? [header, ...alternatives] : [header];
  return Math.max(...captions.map((caption) => captionSimilarity(caption, column, wordings)));
}

/**
 * Words a line-item table's captions say its columns with: what was sold ("Service", "Item"), a discount
 * ("Adjust"), the line's own amount ("Sub Total", "Total": in a table's header, the line's, not the document's).
 */
const COLUMN_SYNONYMS = ['item-column', 'discount-column', 'amount-column'].map((concept) =>
  conceptWords(concept, 'columnCaptions').map((caption) => labelTokens(caption).join(' ')),
);

/** The share of its weight a label said in a column's other words keeps. */
const COLUMN_SYNONYM_WEIGHT = 0.9;

/** A column label and its wordings in the column synonyms, each with its weight. */
function columnWordings(label: { text: string; weight: number }): Wordings {
  const wanted = labelTokens(label.text).join(' ');
  const out = [{ text: wanted, weight: label.weight }];
  for (const group of COLUMN_SYNONYMS)
    for (const term of group) {
      if (!` ${wanted} `.includes(` ${term} `)) continue;
      for (const other of group)
        if (other !== term)
          out.push({
            text: ` ${wanted} `.replace(` ${term} `, ` ${other} `).trim(),
            weight: label.weight * COLUMN_SYNONYM_WEIGHT,
          });
      break;
    }
  return out;
}

function captionSimilarity(header: string, column: ScalarSpec, wordings: Wordings): number {
  const cell = labelTokens(header).join(' ');
  if (!cell) return 0;
  let best = printsEnumValues(header, column) ? VALUES_CAPTION : 0;
  for (const { text: wanted, weight } of wordings) {
    if (!wanted) continue;
    let sim: number;
    if (cell === wanted) sim = 1;
    else if (` ${cell} `.includes(` ${wanted} `) || ` ${wanted} `.includes(` ${cell} `)) sim = 0.85;
    else sim = 1 - levenshtein.get(cell, wanted) / Math.max(cell.length, wanted.length);
    best = Math.max(best, sim * weight);
  }
  return best;
}

/** Maps table columns to item properties greedily by header similarity. */
function mapColumns(header: TableHeader, spec: TableSpec): { mapping: Map<number, ScalarSpec>; score: number } {
  const pairs: { column: number; spec: ScalarSpec; sim: number }[] = [];
  const wordings = new Map(spec.columns.map((item) => [item, item.labels.flatMap(columnWordings)]));
  header.captions.forEach((header, column) => {
    for (const item of spec.columns) {
      const sim = headerSimilarity(header, item, wordings.get(item)!);
      if (sim >= 0.6) pairs.push({ column, spec: item, sim });
    }
  });
  pairs.sort((a, b) => b.sim - a.sim);
  const mapping = new Map<number, ScalarSpec>();
  const used = new Set<ScalarSpec>();
  let total = 0;
  for (const pair of pairs) {
    if (mapping.has(pair.column) || used.has(pair.spec)) continue;
    mapping.set(pair.column, pair.spec);
    used.add(pair.spec);
    total += pair.sim;
  }
  return { mapping, score: spec.columns.length === 0 ? 0 : total / spec.columns.length };
}

/**
 * The columns of the name parts no column is captioned for: the column holding another part of the name
 * ("Name (Last, First, Middle)" mapped to `lastName` holds `firstName` too), else one captioned "Name".
 */
function namePartColumns(
  header: TableHeader,
  spec: TableSpec,
  mapping: Map<number, ScalarSpec>,
): [number, ScalarSpec][] {
  const mapped = new Set(mapping.values());
  const parts = spec.columns.filter((column) => column.namePart && !mapped.has(column));
  if (parts.length === 0) return [];
  const partColumn =
    [...mapping].find(([, column]) => column.namePart)?.[0] ??
    header.captions.findIndex((caption) => /\bnames?$/i.test(caption));
  return partColumn < 0 ? [] : parts.map((part) => [partColumn, part]);
}

/**
 * A cell that makes its row a sum of the rows above, not an item: a total or subtotal, a payslip's gross or net pay.
 * Not a "total to date" column caption (a year-to-date column's, beside the table).
 */
const SUM_ROW = /^(?:(?:sub\s*-?\s*|grand\s+)?total\b(?!\s+to\s+date)|(?:gross|net)\s+pay\b)/i;

/** One body row read as an item, with what its cells' evidence is built from. */
export interface TableItem {
  item: JsonObject;
  /** Every cell's text of the row as printed, mapped to a property or not. */
  texts: string[];
  cells: number;
  validCells: number;
  confidenceSum: number;
}

/** The items of the best-matching tables, and how well their headers matched (0–1). */
export function readTableItems(
  pages: PageLayout[],
  spec: TableSpec,
  options: ExtractOptions,
): { rows: TableItem[]; score: number } {
  const matched = (tables: TableBlock[]) =>
    tables
      .map((table) => {
        const header = readTableHeader(table);
        return { table, header, ...mapColumns(header, spec) };
      })
      .filter((t) => t.mapping.size >= Math.min(2, spec.columns.length));
  const laidOut = matched(pages.flatMap((p) => p.tables));
  // Where no table the layout built answers, the tables under a row of captions it built none at.
  const scored = laidOut.length > 0 ? laidOut : matched(pages.flatMap(headerRowTables));
  const best = Math.max(0, ...scored.map((t) => t.score));
  // Tables continued on later pages repeat the header: take every table nearly as good as the best.
  const chosen = scored.filter((t) => t.score >= best * 0.8 && best > 0);
  const rows: TableItem[] = [];
  for (const { table, header, mapping } of chosen) {
    const columns = [...mapping, ...namePartColumns(header, spec, mapping)];
    for (const row of table.cellLines.slice(header.bodyFrom)) {
      if (row.some((cell) => cell && SUM_ROW.test(cell.text.trim()))) continue;
      const filled = [...mapping.keys()].filter((column) => row[column]);
      if (filled.length * 2 < mapping.size) continue;
      const read: TableItem = {
        item: {},
        texts: row.map((cell) => cell?.text ?? ''),
        cells: 0,
        validCells: 0,
        confidenceSum: 0,
      };
      for (const column of spec.columns) read.item[column.path[0]!] = null;
      for (const [column, columnSpec] of columns) {
        const cell = row[column];
        if (!cell) continue;
        const text = columnSpec.namePart
          ? namePart(cell.text, columnSpec.namePart, hintOrder(header.printed[column]!))
          : cell.text;
        if (text === null) continue;
        const coerced = coerceScalar(text, columnSpec, !options.fast);
        read.item[columnSpec.path[0]!] = coerced.value;
        read.cells++;
        if (coerced.valid) read.validCells++;
        read.confidenceSum += cell.confidence;
      }
      rows.push(read);
    }
  }
  return { rows, score: best };
}
