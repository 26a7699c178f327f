/**
 * Every file name of a run directory (and of the outputs beside it), defined once. Code that reads or
 * writes one of these goes through this folder's readers and writers; reporters name their outputs here.
 */
import path from 'node:path';

/** The files `docbench run`, `score`, `gate` and `report` keep in a run directory. See docs/run-directory.md. */
export const RUN_DIR_FILES = {
  /** Provenance and progress of the run (run/). */
  manifest: 'run.json',
  /** One line per finished call, appended while the run goes (run/). */
  results: 'results.jsonl',
  /** The headline numbers (evaluate/). */
  summary: 'summary.json',
  /** One line per document with everything a drill-down shows (evaluate/). */
  documents: 'documents.jsonl',
  /** The quality gate's verdict (gate/). */
  gate: 'gate.json',
  /** The reports (report/), rebuilt from the files above. */
  reportHtml: 'report.html',
  documentsCsv: 'documents.csv',
  fieldsCsv: 'fields.csv',
  tagsCsv: 'tags.csv',
  junit: 'junit.xml',
  summaryMarkdown: 'summary.md',
  /** One HTML page per document, beside report.html. */
  drilldownDir: 'drilldown',
  /** Runs on the embedded engine: one comparison view per /compare call, linked from the reports (run/comparison-pages.ts). */
  comparisonsDir: 'comparisons',
  /** Where `docbench run --compare-to` writes its diff inside the run directory. */
  diffDir: 'diff',
} as const;

export type RunDirFile = keyof typeof RUN_DIR_FILES;

/** The path of one of a run directory's files. */
export function runDirPath(runDir: string, file: RunDirFile): string {
  return path.join(runDir, RUN_DIR_FILES[file]);
}

/**
 * The page of comparison `id` inside a run directory, relative with `/` separators (what the reports link);
 * null unless the id is a plain file-name segment (lower-case letters, digits, dashes), so the path needs no
 * escaping and cannot leave the directory.
 */
export function comparisonPagePath(id: string | null | undefined): string | null {
  return typeof id === 'string' && /^[a-z0-9][a-z0-9-]{0,99}$/.test(id)
    ? `${RUN_DIR_FILES.comparisonsDir}/${id}.html`
    : null;
}

/** What `docbench diff` writes into its output directory. */
export const DIFF_FILES = { json: 'diff.json', markdown: 'diff.md', html: 'diff.html' } as const;

/** What `docbench history` writes into the reports directory. */
export const HISTORY_FILES = { html: 'index.html', csv: 'history.csv', json: 'history.json' } as const;
