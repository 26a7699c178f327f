/**
 * diff.html's and history's index.html's compiled templates, once per process (loading:
 * src/render/templates.ts). Both pages share the report's stylesheet and chart partials so the three look
 * alike, and one head (`gate-page-head.hbs`) whose CSP forbids every script, image and request: the pages
 * are text, inline CSS and inline SVG.
 */
import type Handlebars from 'handlebars';
import { cacheOnce, compileTemplateFiles, createTemplateEnvironment, readTemplateFiles } from '../render/index.js';

export interface GateTemplates {
  diff: Handlebars.TemplateDelegate;
  history: Handlebars.TemplateDelegate;
}

/** Compiles the two pages once per process. */
export const loadGateTemplates = cacheOnce(async (): Promise<GateTemplates> => {
  const [hbs, files] = await Promise.all([
    createTemplateEnvironment(),
    readTemplateFiles(['gate-page-head.hbs', 'diff.hbs', 'history.hbs']),
  ]);
  const compiled = await compileTemplateFiles(hbs, files);
  hbs.registerPartial('gate-page-head', compiled['gate-page-head.hbs']);
  return { diff: compiled['diff.hbs'], history: compiled['history.hbs'] };
});
