/**
 * Each command's usage line and one-line description, in the order `docbench --help` lists them. Kept apart
 * from the command modules so that `--help` and `--version` list every command without loading any of them
 * (a command module pulls in the library code its handler calls).
 */
export const COMMAND_HEADERS = {
  run: {
    command: 'run',
    describe: 'Run a dataset through the service (or the local reference service), then score and report',
  },
  plan: {
    command: 'plan',
    describe:
      'What `run` with the same flags would call and cost (pages, calls, cache, price); calls and writes nothing',
  },
  score: {
    command: 'score <run-dir>',
    describe:
      'Re-score a stored run without calling the service (e.g. after changing comparators), then rewrite its reports',
  },
  report: {
    command: 'report <run-dir>',
    describe: 'Rebuild report.html, drill-downs, CSV, JUnit and summary.md from a stored run (no service calls)',
  },
  merge: {
    command: 'merge <runs..>',
    describe: 'Combine shard runs (--shard i/n) of one dataset into one run directory, then score and report it',
  },
  serve: {
    command: 'serve',
    describe: 'Run the local reference implementation of the service (offline: pdf.js text layer + tesseract OCR)',
  },
  dataset: {
    command: 'dataset <action>',
    describe: 'Check, scaffold, generate or import a labelled dataset',
  },
  gate: {
    command: 'gate <run-dir>',
    describe:
      'Apply the quality gate (config file `gate` section and flags) to a stored run; rebuild its reports; exit 1 on failure',
  },
  diff: {
    command: 'diff <baseline-run> <candidate-run>',
    describe:
      'Compare a candidate run with a baseline run (paired bootstrap; the primary metric tested alone); write diff.html, diff.md, diff.json; exit 1 on regression',
  },
  baseline: {
    command: 'baseline <action> [target]',
    describe:
      'Pinned baselines: "set <run-dir>" pins a run for its dataset, "show" lists them, "unset <dataset>" removes one',
  },
  history: {
    command: 'history [reports-dir]',
    describe: 'List every run of a reports directory in index.html (trend charts, links to reports) and history.csv',
  },
  view: {
    command: 'view [reports-dir]',
    describe:
      'Browse runs, reports, diffs and comparison views in a local web app, and review and correct ground truth',
  },
  systems: {
    command: 'systems',
    describe:
      'List the systems a run would take (from the config file and flags) and the kinds of system (docs/systems.md)',
  },
} as const satisfies Record<string, { command: string; describe: string }>;

export type CommandName = keyof typeof COMMAND_HEADERS;
