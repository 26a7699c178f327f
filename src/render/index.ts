/**
 * What every rendered output shares — report/ (report.html, drill-downs, CSV, JUnit, summary.md) and gate/
 * (diff.html, diff.md, history's index.html and history.csv): number formats, escaping of untrusted text,
 * safe links, SVG chart geometry and template loading. One copy of each, so the pages and files agree.
 */
export {
  formatPercent,
  formatPercentInterval,
  formatPoints,
  formatMs,
  formatCount,
  formatDate,
  formatDuration,
  formatDecimal,
  formatUsd,
  roundForCsv,
} from './format-number.js';
export { escapeMarkdown, neutraliseFormula } from './escape.js';
export { preloadCsv, stringifyCsv } from './csv.js';
export { toSafeHref, describeServiceUrl } from './safe-url.js';
export type { ChartView } from './charts/chart-types.js';
export { SERIES_CLASSES } from './charts/chart-types.js';
export {
  createFrame,
  linePath,
  linearScale,
  logScale,
  unitTicks,
  sampleEvenly,
  px,
  type Scale,
  type Margins,
} from './charts/plot-area.js';
export { readTemplateFiles, createTemplateEnvironment, compileTemplateFiles, cacheOnce } from './templates.js';
