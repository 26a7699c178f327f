/**
 * report.html's and the drill-downs' compiled templates, once per process (loading: src/render/templates.ts).
 */
import { createHash } from 'node:crypto';
import type Handlebars from 'handlebars';
import { DocbenchError } from '../errors.js';
import { cacheOnce, compileTemplateFiles, createTemplateEnvironment, readTemplateFiles } from '../render/index.js';

export interface CompiledTemplates {
  report: Handlebars.TemplateDelegate;
  drilldown: Handlebars.TemplateDelegate;
  /** report.html's inline script, and its CSP hash (`sha256-…`) so only that script may run. */
  script: string;
  scriptHash: string;
}

export const loadTemplates = cacheOnce(compileTemplates);

async function compileTemplates(): Promise<CompiledTemplates> {
  const [hbs, files] = await Promise.all([
    createTemplateEnvironment(),
    readTemplateFiles([
      'report.hbs',
      'drilldown.hbs',
      'segments.hbs',
      'blocks-card.hbs',
      'blocks-drilldown.hbs',
      'checks.hbs',
      'reading.hbs',
      'report-script.js',
    ]),
  ]);
  const script = files['report-script.js'];
  if (script.includes('</script')) throw new DocbenchError('INTERNAL', 'report-script.js must not contain "</script"');
  const compiled = await compileTemplateFiles(hbs, {
    'report.hbs': files['report.hbs'],
    'drilldown.hbs': files['drilldown.hbs'],
    'segments.hbs': files['segments.hbs'],
    'blocks-card.hbs': files['blocks-card.hbs'],
    'blocks-drilldown.hbs': files['blocks-drilldown.hbs'],
    'checks.hbs': files['checks.hbs'],
    'reading.hbs': files['reading.hbs'],
  });
  // The drill-downs use `styles` but not `report-styles` (they would repeat that CSS 10,000 times).
  hbs.registerPartial('segments', compiled['segments.hbs']);
  hbs.registerPartial('blocks-card', compiled['blocks-card.hbs']);
  hbs.registerPartial('blocks-drilldown', compiled['blocks-drilldown.hbs']);
  hbs.registerPartial('checks', compiled['checks.hbs']);
  hbs.registerPartial('reading', compiled['reading.hbs']);
  return {
    report: compiled['report.hbs'],
    drilldown: compiled['drilldown.hbs'],
    script,
    scriptHash: `sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}`,
  };
}
