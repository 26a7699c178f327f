/**
 * documents.csv (one row per document) and fields.csv (one row per field path and mode), in a stable column
 * order: fixed columns first, then per mode in canonical order, then per call key, then tags.
 */
import { stringify } from 'csv-stringify/sync';
import { RUN_DIR_FILES, runDirPath } from '../../run-dir/index.js';
import { writeFileAtomic } from '../../fs-utils.js';
import { neutraliseFormula, roundForCsv } from '../../render/index.js';
import type { ReportView } from '../view-types.js';
import type { Reporter } from './reporter.js';

type Cell = string | number | boolean | null;

function text(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : neutraliseFormula(value);
}

/** The documents.csv header for a view: stable for runs with the same modes, endpoints and tags. */
export function documentColumns(view: ReportView): string[] {
  const columns = ['document_id', 'status', 'error', 'dashboard_url', 'pages'];
  for (const mode of view.modes) columns.push(`f1_${mode}`, `strict_f1_${mode}`, `exact_${mode}`, `confidence_${mode}`, `latency_ms_${mode}`);
  columns.push('similarity_service', 'similarity_baseline', 'similarity_delta');
  for (const key of view.documents.latency_keys) if (!key.startsWith('extract:')) columns.push(`latency_ms_${key}`);
  if (view.gate) columns.push('gate_passed', 'gate_reasons');
  for (const key of view.documents.tag_keys) columns.push(`tag_${key}`);
  return columns;
}

export function toDocumentsCsv(view: ReportView): string {
  const columns = documentColumns(view);
  const records: Cell[][] = view.documents.rows.map((row) => {
    const cells: Cell[] = [text(row.id), row.status, text(row.errors.join('; ')), text(row.dashboard_url), row.pages];
    for (const mode of view.modes) {
      const exact = row.exact[mode];
      cells.push(roundForCsv(row.f1[mode]), roundForCsv(row.strict_f1[mode]), exact === null || exact === undefined ? null : exact ? 1 : 0, roundForCsv(row.confidence[mode]), roundForCsv(row.latency_ms[`extract:${mode}`]));
    }
    cells.push(roundForCsv(row.similarity_service), roundForCsv(row.similarity_baseline), roundForCsv(row.similarity_delta));
    for (const key of view.documents.latency_keys) if (!key.startsWith('extract:')) cells.push(roundForCsv(row.latency_ms[key]));
    if (view.gate) cells.push(row.gate_reasons.length === 0 ? 1 : 0, text(row.gate_reasons.join('; ')));
    for (const key of view.documents.tag_keys) cells.push(text(row.tags[key]));
    return cells;
  });
  return stringify(records, { header: true, columns, cast: { boolean: (v) => (v ? '1' : '0') } });
}

export const FIELD_COLUMNS = ['path', 'mode', 'f1', 'precision', 'recall', 'tp', 'fp', 'fn', 'missing', 'hallucinated', 'wrong_value', 'format_only'] as const;

export function toFieldsCsv(view: ReportView): string {
  const records = view.fields.map((f) => [text(f.path), f.mode, roundForCsv(f.f1), roundForCsv(f.precision), roundForCsv(f.recall), f.tp, f.fp, f.fn, f.missing, f.hallucinated, f.wrong_value, f.format_only]);
  return stringify(records, { header: true, columns: [...FIELD_COLUMNS] });
}

export const documentsCsvReporter: Reporter = {
  format: 'documents-csv',
  output: RUN_DIR_FILES.documentsCsv,
  async write({ runDir, view }) {
    const file = runDirPath(runDir, 'documentsCsv');
    await writeFileAtomic(file, toDocumentsCsv(view));
    return [file];
  },
};

export const fieldsCsvReporter: Reporter = {
  format: 'fields-csv',
  output: RUN_DIR_FILES.fieldsCsv,
  async write({ runDir, view }) {
    const file = runDirPath(runDir, 'fieldsCsv');
    await writeFileAtomic(file, toFieldsCsv(view));
    return [file];
  },
};
