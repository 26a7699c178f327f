/**
 * Templates of diff.html and index.html, compiled with the report's stylesheet and chart partials so the
 * three pages look alike (src/render/templates/styles.hbs, report-styles.hbs and chart.hbs, shared through
 * src/render/).
 * The page bodies live here as strings, not as files, so they ship inside dist/ with no packaging step.
 * Same rules as the report: knownHelpersOnly (each/if/with), `{{ }}` everywhere, no script at all — the
 * CSP forbids every script.
 */
import type Handlebars from 'handlebars';
import { cacheOnce, COMPILE_OPTIONS, createTemplateEnvironment } from '../render/index.js';

/** No script, no images, no network: the page is text, inline CSS and inline SVG. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'";

const HEAD = (title: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>
{{> styles}}
{{> report-styles}}
.delta-bad { color: var(--bad); font-weight: 600; } .delta-good { color: var(--good); font-weight: 600; }
</style>
</head>
<body>`;

const DIFF_TEMPLATE = `${HEAD('{{view.title}}')}
<header class="top"><div class="inner">
  <div class="eyebrow">docbench diff</div>
  <h1>{{view.dataset}}</h1>
  <div class="facts">
    {{#each view.facts}}<div class="fact"><div class="label">{{label}}</div><div class="value">{{value}}</div>{{#if detail}}<div class="detail">{{detail}}</div>{{/if}}</div>{{/each}}
  </div>
</div></header>
<nav class="sections" aria-label="Sections"><div class="inner"><a href="#headline">Headline</a><a href="#fields">Field paths</a><a href="#flips">Flips</a><a href="#latency">Latency</a></div></nav>
<main>
<section class="banner {{view.tone}}" role="status" id="verdict">
  <strong>{{view.verdict}}</strong>
  <ul>{{#each view.reasons}}<li>{{this}}</li>{{/each}}</ul>
</section>
{{#each view.warnings}}<div class="banner warn" role="alert">{{this}}</div>{{/each}}
<p class="small muted">{{view.method}}</p>

<h2 id="headline">Headline metrics</h2>
{{#if view.headline.length}}
{{#if view.chart}}<div class="charts">{{#with view.chart}}{{> chart}}{{/with}}</div>{{/if}}
<div class="table-wrap" style="max-height:none;margin-top:12px">
<table><thead><tr><th>Metric</th><th class="num">Documents</th><th class="num">Baseline</th><th class="num">Candidate</th><th class="num">Δ</th><th>95% interval</th><th class="num">p bootstrap</th><th class="num">p decision</th><th class="num">p sign</th><th class="num">p Wilcoxon</th><th class="num">Better / worse / tie</th><th>Result</th></tr></thead>
<tbody>{{#each view.headline}}<tr><td>{{label}}<div class="small muted"><code>{{metric}}</code> · {{family}} · {{aggregate}}</div></td><td class="num">{{documents}}</td><td class="num">{{baseline}}</td><td class="num">{{candidate}}</td><td class="num"><span class="{{delta_class}}">{{delta}}</span></td><td class="mono">{{ci95}}</td><td class="num">{{p_bootstrap}}</td><td class="num">{{p_adjusted}}</td><td class="num">{{p_sign}}</td><td class="num">{{p_wilcoxon}}</td><td class="num">{{wlt}}</td><td><span class="pill {{tone}}">{{result}}</span></td></tr>{{/each}}</tbody></table>
</div>
{{else}}<p class="muted">No headline metric is present in both runs.</p>{{/if}}

<h2 id="fields">Field paths</h2>
<p>{{view.fields_summary}}</p>
{{#if view.fields.length}}
<div class="table-wrap">
<table><thead><tr><th>Field</th><th>Mode</th><th class="num">Documents</th><th class="num">Baseline F1</th><th class="num">Candidate F1</th><th class="num">Δ</th><th>95% interval</th><th class="num">p Holm</th><th class="num">Baseline TP/FP/FN</th><th class="num">Candidate TP/FP/FN</th><th>Result</th></tr></thead>
<tbody>{{#each view.fields}}<tr><td><code>{{path}}</code></td><td>{{mode}}</td><td class="num">{{documents}}</td><td class="num">{{baseline}}</td><td class="num">{{candidate}}</td><td class="num"><span class="{{delta_class}}">{{delta}}</span></td><td class="mono">{{ci95}}</td><td class="num">{{p_adjusted}}</td><td class="num">{{baseline_counts}}</td><td class="num">{{candidate_counts}}</td><td><span class="pill {{tone}}">{{result}}</span></td></tr>{{/each}}</tbody></table>
</div>
{{/if}}

<h2 id="flips">Documents that flipped</h2>
<div class="cards">
{{#each view.flips}}<div class="card"><h3><span>{{title}}</span><span class="pill {{tone}}">{{count}}</span></h3>{{#if ids.length}}<p class="small mono">{{#each ids}}{{this}}{{#unless @last}}, {{/unless}}{{/each}}{{#if more}} … and {{more}} more (diff.json){{/if}}</p>{{else}}<p class="muted small">none</p>{{/if}}</div>{{/each}}
</div>

<h2 id="latency">Latency</h2>
{{#if view.latency.length}}
<div class="table-wrap" style="max-height:none">
<table><thead><tr><th>Call</th><th class="num">Documents</th><th class="num">Baseline p50 / p95</th><th class="num">Candidate p50 / p95</th><th class="num">Δ p50</th><th class="num">Δ p95</th><th>Mean Δ (95% interval)</th><th class="num">Faster / slower</th><th class="num">p Wilcoxon</th></tr></thead>
<tbody>{{#each view.latency}}<tr><td><code>{{key}}</code></td><td class="num">{{documents}}</td><td class="num">{{baseline}}</td><td class="num">{{candidate}}</td><td class="num">{{delta_p50}}</td><td class="num"><span class="{{delta_class}}">{{delta_p95}}</span></td><td class="mono">{{mean_delta}}</td><td class="num">{{faster_slower}}</td><td class="num">{{p_wilcoxon}}</td></tr>{{/each}}</tbody></table>
</div>
<p class="small muted">Latency is reported, not part of the verdict: set a gate threshold (max_p95_ms) to fail on it.</p>
{{else}}<p class="muted">No call type was timed in both runs.</p>{{/if}}
</main>
<footer>Written by docbench {{view.version}}. diff.json holds every number on this page; diff.md is the short form for CI summaries.</footer>
</body>
</html>
`;

const HISTORY_TEMPLATE = `${HEAD('{{view.title}}')}
<header class="top"><div class="inner">
  <div class="eyebrow">docbench history</div>
  <h1>{{view.title}}</h1>
  <div class="facts">
    {{#each view.facts}}<div class="fact"><div class="label">{{label}}</div><div class="value">{{value}}</div>{{#if detail}}<div class="detail">{{detail}}</div>{{/if}}</div>{{/each}}
  </div>
</div></header>
<nav class="sections" aria-label="Sections"><div class="inner"><a href="#runs">Runs</a>{{#each view.datasets}}<a href="#{{anchor}}">{{name}}</a>{{/each}}</div></nav>
<main>
{{#each view.warnings}}<div class="banner warn" role="alert">{{this}}</div>{{/each}}
{{#each view.datasets}}
<h2 id="{{anchor}}">{{name}}</h2>
<p class="muted small">{{runs}} runs · {{span}}</p>
<div class="charts">{{#each charts}}{{> chart}}{{/each}}</div>
{{/each}}
<h2 id="runs">Runs</h2>
{{#if view.rows.length}}
<div class="table-wrap">
<table><thead><tr><th>Date</th><th>Run</th><th>Dataset</th><th>Service</th><th>Status</th><th class="num">Documents</th>{{#each view.metric_columns}}<th class="num">{{this}}</th>{{/each}}<th>Gate</th><th>Report</th></tr></thead>
<tbody>{{#each view.rows}}<tr><td class="num">{{date}}</td><td class="mono">{{run_id}}</td><td>{{dataset}}</td><td>{{service}}</td><td>{{status}}</td><td class="num">{{documents}}</td>{{#each metrics}}<td class="num">{{this}}</td>{{/each}}<td><span class="pill {{gate_tone}}">{{gate}}</span></td><td>{{#if report_href}}<a href="{{report_href}}">report</a>{{else}}<span class="muted">none</span>{{/if}}{{#if diff_href}} · <a href="{{diff_href}}">diff</a>{{/if}}</td></tr>{{/each}}</tbody></table>
</div>
{{else}}<p class="muted">No scored run directories were found.</p>{{/if}}
</main>
<footer>Written by docbench {{view.version}} · history.csv holds the same rows.</footer>
</body>
</html>
`;

export interface GateTemplates {
  diff: Handlebars.TemplateDelegate;
  history: Handlebars.TemplateDelegate;
}

/** Compiles the two pages once per process. */
export const loadGateTemplates = cacheOnce(async (): Promise<GateTemplates> => {
  const hbs = await createTemplateEnvironment();
  return { diff: hbs.compile(DIFF_TEMPLATE, COMPILE_OPTIONS), history: hbs.compile(HISTORY_TEMPLATE, COMPILE_OPTIONS) };
});
