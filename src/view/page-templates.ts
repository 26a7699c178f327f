/**
 * The view's own pages' compiled templates (`view-*.hbs`), once per process, loaded like the reports' and the
 * gate's (src/render/templates.ts): an isolated handlebars environment, built-in block helpers only, every
 * `{{ }}` escaped. The pages share one head (`view-head.hbs`: title, stylesheet, and the page's optional
 * refresh as its partial block). The files end without a newline, as the pages do.
 */
import type Handlebars from 'handlebars';
import { cacheOnce, compileTemplateFiles, createTemplateEnvironment, readTemplateFiles } from '../render/index.js';
import { loadReviewScript } from './review-script.js';

export interface ViewTemplates {
  index: Handlebars.TemplateDelegate;
  progress: Handlebars.TemplateDelegate;
  message: Handlebars.TemplateDelegate;
  review: Handlebars.TemplateDelegate;
  /** The review page's inline script, marked safe for its `<script>` element, and its CSP hash. */
  reviewScript: { html: Handlebars.SafeString; hash: string };
}

/** Compiles the pages and loads the review script once per process. */
export const loadViewTemplates = cacheOnce(async (): Promise<ViewTemplates> => {
  const [hbs, files, script] = await Promise.all([
    createTemplateEnvironment(),
    readTemplateFiles(['view-head.hbs', 'view-index.hbs', 'view-progress.hbs', 'view-message.hbs', 'view-review.hbs']),
    loadReviewScript(),
  ]);
  const compiled = await compileTemplateFiles(hbs, files);
  hbs.registerPartial('view-head', compiled['view-head.hbs']);
  return {
    index: compiled['view-index.hbs'],
    progress: compiled['view-progress.hbs'],
    message: compiled['view-message.hbs'],
    review: compiled['view-review.hbs'],
    reviewScript: { html: new hbs.SafeString(script.text), hash: script.hash },
  };
});
