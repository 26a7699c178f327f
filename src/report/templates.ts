/**
 * Loads and compiles the handlebars templates once per process. Templates live in src/report/templates/
 * (shipped in the package, see package.json "files"); from dist/report/ they are found two levels up.
 * An isolated handlebars environment: no global helpers or partials leak in or out.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { DocbenchError } from '../errors.js';

export interface CompiledTemplates {
  report: Handlebars.TemplateDelegate;
  drilldown: Handlebars.TemplateDelegate;
  /** report.html's inline script, and its CSP hash (`sha256-…`) so only that script may run. */
  script: string;
  scriptHash: string;
}

const CANDIDATES = [new URL('./templates/', import.meta.url), new URL('../../src/report/templates/', import.meta.url)];

export function findTemplateDirectory(): string {
  for (const candidate of CANDIDATES) {
    const dir = fileURLToPath(candidate);
    if (existsSync(`${dir}report.hbs`)) return dir;
  }
  throw new DocbenchError('INTERNAL', `report templates not found (looked in ${CANDIDATES.map((c) => fileURLToPath(c)).join(', ')})`, { hint: 'reinstall docbench: the package ships src/report/templates' });
}

let cached: Promise<CompiledTemplates> | null = null;

export function loadTemplates(): Promise<CompiledTemplates> {
  cached ??= compileTemplates().catch((error: unknown) => {
    cached = null;
    throw error;
  });
  return cached;
}

async function compileTemplates(): Promise<CompiledTemplates> {
  const dir = findTemplateDirectory();
  const read = (name: string) => readFile(`${dir}${name}`, 'utf8');
  const [report, drilldown, styles, reportStyles, chart, segments, script] = await Promise.all([read('report.hbs'), read('drilldown.hbs'), read('styles.hbs'), read('report-styles.hbs'), read('chart.hbs'), read('segments.hbs'), read('report-script.js')]);
  const hbs = Handlebars.create();
  // Shared by both pages; report-styles only by report.html (drill-downs repeat their CSS 10,000 times).
  hbs.registerPartial('styles', styles);
  hbs.registerPartial('report-styles', reportStyles);
  hbs.registerPartial('chart', chart);
  hbs.registerPartial('segments', segments);
  // knownHelpersOnly: the templates may use the built-in block helpers (each, if, with) and nothing else.
  const options: CompileOptions = { knownHelpersOnly: true, noEscape: false };
  if (script.includes('</script')) throw new DocbenchError('INTERNAL', 'report-script.js must not contain "</script"');
  return {
    report: hbs.compile(report, options),
    drilldown: hbs.compile(drilldown, options),
    script,
    scriptHash: `sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}`,
  };
}
