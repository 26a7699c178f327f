/**
 * The /evals comparison view: one self-contained HTML page (inline CSS, no script, no network) with the
 * service's markdown beside the caller's baseline, page by page, and links to every stored comparison.
 * Handlebars `{{ }}` escapes every value: baselines are untrusted text.
 */
import { createRequire } from 'node:module';
import type Handlebars from 'handlebars';
import { PAGE_BREAK } from './contract.js';
import type { ComparisonRecord } from './evals-store.js';

const TEMPLATE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{csp}}">
<meta name="referrer" content="no-referrer"><title>docbench local: {{filename}}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:0;display:flex;min-height:100vh;color:#1d2330}
nav{width:260px;flex:none;border-right:1px solid #d8dbe2;padding:12px;background:#f6f7f9;overflow:auto}
nav a{display:block;padding:4px 6px;border-radius:4px;color:#24408e;text-decoration:none;word-break:break-all}
nav a.current{background:#dfe6f8;font-weight:600}
main{flex:1;padding:16px;overflow:auto}
.pager a{margin-right:12px}
.page{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-bottom:24px}
.page h3{grid-column:1/3;margin:8px 0 0}
pre{white-space:pre-wrap;word-break:break-word;background:#fbfbfc;border:1px solid #d8dbe2;border-radius:6px;padding:10px;margin:0}
.missing{color:#8a5a00}
</style></head>
<body>
<nav><strong>Comparisons ({{entries.length}})</strong>
{{#each entries}}<a href="{{href}}"{{#if current}} class="current"{{/if}}>{{filename}}<br><small>{{createdAt}}</small></a>{{/each}}
</nav>
<main>
<h1>{{filename}}</h1>
<p>Comparison <code>{{id}}</code>, {{createdAt}}. Left: the docbench local engine. Right: the baseline sent with the request.</p>
<p class="pager">{{#if previous}}<a href="{{previous}}">&larr; previous file</a>{{/if}}{{#if next}}<a href="{{next}}">next file &rarr;</a>{{/if}}</p>
{{#unless hasBaseline}}<p class="missing">No baseline was sent with this comparison (part original_results or originalResults).</p>{{/unless}}
{{#each pages}}
<section class="page"><h3>Page {{number}}</h3>
<div><strong>Service</strong><pre>{{service}}</pre></div>
<div><strong>Baseline</strong>{{#if hasBaseline}}<pre>{{baseline}}</pre>{{else}}<p class="missing">—</p>{{/if}}</div>
</section>
{{/each}}
</main></body></html>`;

// Loaded and compiled by the first page rendered, not with the engine's entry: importing it loads no template.
const require = createRequire(import.meta.url);
const handlebarsPackage = () => require('handlebars') as typeof Handlebars;
let compiled: Handlebars.TemplateDelegate | undefined;
const compileTemplate = () => (compiled ??= handlebarsPackage().compile(TEMPLATE));

/** Where a comparison's page lives: the service's /evals route by default. */
export type ComparisonHref = (id: string) => string;

/** Text and inline CSS only, like the reports: the page also opens from files inside a run directory. */
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'none'; img-src 'none'; base-uri 'none'; form-action 'none'";

function serviceHref(id: string): string {
  return `/evals?filename=${encodeURIComponent(id)}`;
}

/**
 * Renders the page for `record`, with navigation across `entries`. `hrefOf` places the links: the service's
 * route, or sibling files when the page is exported into a run directory.
 */
export function renderEvalsPage(
  record: ComparisonRecord,
  entries: { id: string; filename: string; created_at: string }[],
  hrefOf: ComparisonHref = serviceHref,
): string {
  const baselinePages = record.baseline === null ? [] : record.baseline.split(PAGE_BREAK).map((p) => p.trim());
  // A baseline without page breaks is shown whole beside page 1.
  const count = Math.max(record.pages.length, baselinePages.length);
  const pages = Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    service: record.pages[i]?.content ?? '',
    baseline: baselinePages[i] ?? '',
    hasBaseline: baselinePages[i] !== undefined,
  }));
  const position = entries.findIndex((e) => e.id === record.id);
  return compileTemplate()({
    csp: CSP,
    id: record.id,
    filename: record.filename,
    createdAt: record.created_at,
    hasBaseline: record.baseline !== null,
    pages,
    previous: position > 0 ? hrefOf(entries[position - 1]!.id) : null,
    next: position >= 0 && position < entries.length - 1 ? hrefOf(entries[position + 1]!.id) : null,
    entries: entries.map((e) => ({
      href: hrefOf(e.id),
      filename: e.filename,
      createdAt: e.created_at,
      current: e.id === record.id,
    })),
  });
}

/** The index page: every comparison, newest last. */
export function renderEvalsIndex(entries: { id: string; filename: string; created_at: string }[]): string {
  const { escapeExpression } = handlebarsPackage();
  const rows = entries.map(
    (e) =>
      `<li><a href="${escapeExpression(serviceHref(e.id))}">${escapeExpression(e.filename)}</a> <small>${escapeExpression(e.created_at)}</small></li>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docbench local: comparisons</title></head><body><h1>Comparisons (${entries.length})</h1><ul>${rows.join('')}</ul></body></html>`;
}
