/**
 * documents.csv (one row per document and system), fields.csv (one row per system, field path and mode) and
 * tags.csv (one row per tag key, tag value and system): the long ("tidy") layout, so `pd.read_csv` then
 * `pivot`/`groupby("system")` work without reshaping and a spreadsheet filters by the `system` column. Stable
 * column order: fixed columns first, then per mode in canonical order, then per call key, then tags.
 */
import { RUN_DIR_FILES, runDirPath, type RunDirFile } from '../../run-dir/index.js';
import { writeFileAtomic } from '../../fs-utils.js';
import { neutraliseFormula, roundForCsv, stringifyCsv } from '../../render/index.js';
import type { ReportView, TagFiguresRow } from '../view-types.js';
import type { ReportFormat, Reporter } from './reporter.js';

type Cell = string | number | boolean | null;

/** The block metrics (docs/metrics.md "Blocks"): edit distances lower-is-better, TEDS higher-is-better. */
const BLOCK_FIGURES = [
  'text_edit',
  'reading_order_edit',
  'formula_edit',
  'table_teds',
  'table_teds_structure',
  'table_edit',
] as const;
const BLOCK_COLUMNS = BLOCK_FIGURES.map((figure) => `blocks_${figure}`);

function text(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : neutraliseFormula(value);
}

/** The documents.csv header for a view: stable for runs with the same modes, endpoints and tags. */
export function documentColumns(view: ReportView): string[] {
  const columns = ['document_id', 'system', 'status', 'error', 'dashboard_url', 'pages'];
  for (const mode of view.modes)
    columns.push(`f1_${mode}`, `strict_f1_${mode}`, `exact_${mode}`, `confidence_${mode}`, `latency_ms_${mode}`);
  columns.push('similarity', 'similarity_delta_vs_reference', ...BLOCK_COLUMNS, 'regions_reading_order', 'cost_usd');
  if (view.documents.check_columns) columns.push('check_pass_rate', 'checks_passed', 'checks_total');
  for (const key of view.documents.latency_keys) if (!key.startsWith('extract:')) columns.push(`latency_ms_${key}`);
  if (view.gate) columns.push('gate_passed', 'gate_reasons');
  for (const key of view.documents.tag_keys) columns.push(`tag_${key}`);
  return columns;
}

export function toDocumentsCsv(view: ReportView): string {
  const columns = documentColumns(view);
  const records: Cell[][] = view.documents.rows.flatMap((row) =>
    row.systems.map((cell) => {
      const cells: Cell[] = [
        text(row.id),
        text(cell.system),
        cell.status,
        text(cell.errors.join('; ')),
        text(cell.dashboard_url),
        row.pages,
      ];
      for (const mode of view.modes) {
        const exact = cell.exact[mode];
        cells.push(
          roundForCsv(cell.f1[mode]),
          roundForCsv(cell.strict_f1[mode]),
          exact === null || exact === undefined ? null : exact ? 1 : 0,
          roundForCsv(cell.confidence[mode]),
          roundForCsv(cell.latency_ms[`extract:${mode}`]),
        );
      }
      cells.push(
        roundForCsv(cell.similarity),
        roundForCsv(cell.similarity_delta),
        ...BLOCK_FIGURES.map((figure) => roundForCsv(cell.blocks?.[figure])),
        roundForCsv(cell.regions_reading_order),
        cell.cost_usd === null ? null : Math.round(cell.cost_usd * 1e8) / 1e8,
      );
      if (view.documents.check_columns)
        cells.push(
          roundForCsv(cell.checks?.pass_rate ?? null),
          cell.checks?.passed ?? null,
          cell.checks?.total ?? null,
        );
      for (const key of view.documents.latency_keys)
        if (!key.startsWith('extract:')) cells.push(roundForCsv(cell.latency_ms[key]));
      if (view.gate) cells.push(cell.gate_reasons.length === 0 ? 1 : 0, text(cell.gate_reasons.join('; ')));
      for (const key of view.documents.tag_keys) cells.push(text(row.tags[key]));
      return cells;
    }),
  );
  return stringifyCsv(records, { header: true, columns, cast: { boolean: (v) => (v ? '1' : '0') } });
}

export const FIELD_COLUMNS = [
  'system',
  'path',
  'mode',
  'f1',
  'precision',
  'recall',
  'tp',
  'fp',
  'fn',
  'missing',
  'hallucinated',
  'wrong_value',
  'format_only',
  'not_in_text',
  'in_text',
] as const;

export function toFieldsCsv(view: ReportView): string {
  const records = view.fields.map((f) => [
    text(f.system),
    text(f.path),
    f.mode,
    roundForCsv(f.f1),
    roundForCsv(f.precision),
    roundForCsv(f.recall),
    f.tp,
    f.fp,
    f.fn,
    f.missing,
    f.hallucinated,
    f.wrong_value,
    f.format_only,
    // Blank for a system without markdown: nothing is claimed about where its misses were.
    f.not_in_text ?? '',
    f.in_text ?? '',
  ]);
  return stringifyCsv(records, { header: true, columns: [...FIELD_COLUMNS] });
}

type Interval = readonly [number, number] | null | undefined;

/** A figure and its interval's bounds, as three cells (blank where summary.json has none). */
function withBounds(value: number | null | undefined, interval: Interval): Cell[] {
  return [roundForCsv(value), roundForCsv(interval?.[0]), roundForCsv(interval?.[1])];
}

/**
 * The tags.csv header for a view: each figure of summary.json's by_tag followed by its 95% interval's bounds
 * (`<figure>_ci95_lo`, `<figure>_ci95_hi`), per mode in canonical order, then similarity.
 */
export function tagColumns(view: ReportView): string[] {
  const bounded = (figure: string) => [figure, `${figure}_ci95_lo`, `${figure}_ci95_hi`];
  return [
    'system',
    'tag_key',
    'tag_value',
    'documents',
    'failed',
    ...view.modes.flatMap((mode) => [...bounded(`f1_${mode}`), ...bounded(`exact_match_${mode}`)]),
    ...bounded('similarity'),
  ];
}

function tagRecord(view: ReportView, { system, key, value, breakdown: b }: TagFiguresRow): Cell[] {
  return [
    text(system),
    text(key),
    text(value),
    b.documents,
    b.failed,
    ...view.modes.flatMap((mode) => [
      ...withBounds(b.extraction_f1[mode], b.ci95?.extraction_f1[mode]),
      ...withBounds(b.exact_match_rate[mode], b.ci95?.exact_match_rate[mode]),
    ]),
    ...withBounds(b.similarity, b.ci95?.similarity),
  ];
}

/** tags.csv: every system's by_tag figures with their intervals, as summary.json holds them. */
export function toTagsCsv(view: ReportView): string {
  const records = view.tag_rows.map((row) => tagRecord(view, row));
  return stringifyCsv(records, { header: true, columns: tagColumns(view) });
}

/** A reporter writing one CSV file of the run directory from the view. */
function csvReporter(format: ReportFormat, file: RunDirFile, toCsv: (view: ReportView) => string): Reporter {
  return {
    format,
    output: RUN_DIR_FILES[file],
    async write({ runDir, view }) {
      const target = runDirPath(runDir, file);
      await writeFileAtomic(target, toCsv(view));
      return [target];
    },
  };
}

export const documentsCsvReporter = csvReporter('documents-csv', 'documentsCsv', toDocumentsCsv);
export const fieldsCsvReporter = csvReporter('fields-csv', 'fieldsCsv', toFieldsCsv);
export const tagsCsvReporter = csvReporter('tags-csv', 'tagsCsv', toTagsCsv);
