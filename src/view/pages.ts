/**
 * The view's own pages: the run index, a run's progress, the review shell and error messages. Handlebars in
 * an isolated environment with only the built-in helpers; every value goes through `{{ }}` (run ids, dataset
 * names and service URLs are untrusted). Each page comes with the Content-Security-Policy the server sends:
 * no script except the review's own (by hash), no network but this server.
 */
import Handlebars from 'handlebars';
import { MODES, type Mode } from '../types.js';
import { DOCBENCH_VERSION } from '../version.js';
import { describeServiceUrl, formatDate, formatPercent } from '../render/index.js';
import { toScriptJsonHtml } from '../report/index.js';
import { RUN_DIR_FILES } from '../run-dir/index.js';
import { findPreviousRun, type ListedRun } from './run-list.js';
import type { ReviewScript } from './review-script.js';

export interface Page {
  html: string;
  csp: string;
}

const BASE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
export const STATIC_CSP = `${BASE_CSP}; img-src 'none'`;

const hbs = Handlebars.create();
const compile = (source: string) => hbs.compile(source, { knownHelpersOnly: true, noEscape: false });

const STYLE = `
:root{--ink:#1d2330;--muted:#5b6475;--line:#d8dbe2;--bg:#f6f7f9;--good:#1a7f37;--bad:#c62828;--warn:#8a5a00;--link:#24408e}
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:var(--ink)}
header.top{background:var(--bg);border-bottom:1px solid var(--line);padding:12px 20px}
header.top h1{margin:4px 0;font-size:20px}
.eyebrow{color:var(--muted);font-size:12px}
a{color:var(--link)}
main{padding:16px 20px}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{background:var(--bg);font-weight:600}
.num{text-align:right;font-variant-numeric:tabular-nums}
.pill{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;background:#e9ecf2}
.pill.good{background:#dcf3e2;color:var(--good)}.pill.bad{background:#fbe0e0;color:var(--bad)}.pill.warn{background:#fdf0d5;color:var(--warn)}
.banner{border:1px solid var(--line);border-left:4px solid var(--warn);background:#fffaf0;padding:8px 12px;margin:8px 0;border-radius:4px}
.muted{color:var(--muted)}
progress{width:240px}
`;

const HEAD = (title: string, refresh: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">${refresh}<title>${title}</title><style>${STYLE}</style>`;

const INDEX =
  compile(`${HEAD('docbench view: {{reportsLabel}}', '{{#if refresh}}<meta http-equiv="refresh" content="3">{{/if}}')}</head><body>
<header class="top"><div class="eyebrow">docbench view {{version}}</div><h1>Runs in {{reportsLabel}}</h1>
<div class="muted">{{runs.length}} runs{{#if inProgress}} · {{inProgress}} in progress (this page refreshes itself){{/if}} · <a href="/history">trend charts</a></div></header>
<main>
{{#each skipped}}<div class="banner">Skipped {{name}}: {{reason}}</div>{{/each}}
{{#if runs.length}}
<table id="runs"><thead><tr><th>Date</th><th>Run</th><th>Dataset</th><th>Service</th><th>Status</th><th class="num">Documents</th>{{#each modeColumns}}<th class="num">F1 {{this}}</th>{{/each}}<th>Open</th></tr></thead>
<tbody>{{#each runs}}<tr data-run="{{name}}"><td>{{date}}</td><td><code>{{name}}</code></td><td>{{dataset}}</td><td>{{service}}</td>
<td>{{#if progress}}<progress max="{{progress.planned}}" value="{{progress.recorded}}"></progress> <span class="progress-text">{{progress.text}}</span>{{else}}<span class="pill {{statusTone}}">{{status}}</span>{{/if}}</td>
<td class="num">{{documents}}</td>{{#each f1}}<td class="num">{{this}}</td>{{/each}}
<td>{{#if reportHref}}<a class="report" href="{{reportHref}}">report</a> · <a class="review" href="{{reviewHref}}">review</a>{{else}}<a class="progress" href="{{runHref}}">progress</a>{{/if}}{{#if diffHref}} · <a class="diff" href="{{diffHref}}">diff vs {{diffBase}}</a>{{/if}}</td></tr>{{/each}}</tbody></table>
{{else}}<p>No run yet. Start one with <code>docbench run --dataset &lt;dir&gt;</code>; it appears here without a restart.</p><meta http-equiv="refresh" content="5">{{/if}}
</main></body></html>`);

const PROGRESS =
  compile(`${HEAD('docbench view: run {{name}}', '{{#if running}}<meta http-equiv="refresh" content="2">{{/if}}')}</head><body>
<header class="top"><div class="eyebrow"><a href="/">← all runs</a></div><h1>Run <code>{{name}}</code></h1><div class="muted">{{dataset}} · {{service}} · started {{date}}</div></header>
<main><p id="progress"><progress max="{{planned}}" value="{{recorded}}"></progress> {{recorded}} of {{planned}} calls recorded · status {{status}}</p>
{{#if running}}<p class="muted">This page refreshes itself; the report appears when the run is scored.</p>{{else}}<p class="banner">The run is {{status}} and not scored: finish it with <code>docbench run --resume</code>.</p>{{/if}}
</main></body></html>`);

const MESSAGE = compile(`${HEAD('docbench view: {{title}}', '')}</head><body>
<header class="top"><div class="eyebrow"><a href="/">← all runs</a></div><h1>{{title}}</h1></header><main><p id="message">{{message}}</p>{{#if hint}}<p class="muted">{{hint}}</p>{{/if}}</main></body></html>`);

const REVIEW = compile(`${HEAD('docbench review: {{run}}', '')}
<style>
.bar{display:flex;gap:16px;align-items:center;flex-wrap:wrap}
.figures span{margin-right:14px}
.review{display:grid;grid-template-columns:minmax(0,1.1fr) minmax(0,1fr);gap:16px;padding:12px 20px}
.frame{position:relative;border:1px solid var(--line);background:#fff;min-height:200px}
.frame img{display:block;width:100%;height:auto}
.box{position:absolute;border:2px solid #e53935;background:rgba(229,57,53,.12);pointer-events:none}
pre{white-space:pre-wrap;word-break:break-word;background:#fbfbfc;border:1px solid var(--line);border-radius:6px;padding:6px 8px;margin:4px 0;max-height:260px;overflow:auto}
#systems li{margin:6px 0}
.match{color:var(--good)}.differs{color:var(--bad)}
.keys kbd{border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:0 5px;background:#fff;font:12px monospace}
#message{min-height:1.5em}
#message.error{color:var(--bad);font-weight:600}
textarea{width:100%;box-sizing:border-box;min-height:80px;font:13px monospace}
#note{width:100%;box-sizing:border-box}
.tier{font-size:12px}
</style></head><body>
<header class="top"><div class="eyebrow"><a href="/">← all runs</a> · <a href="{{reportHref}}">report</a> · review</div>
<h1>Review: run <code>{{run}}</code></h1>
<div class="bar"><div class="figures" id="figures"></div>
<div id="changed" class="banner" hidden>Truth changed since scoring: the figures are out of date. <button id="rescore" type="button">Re-score</button></div></div>
<p id="message" role="status" aria-live="polite"></p></header>
<div class="review">
<section><div class="frame" id="frame"><img id="page-image" alt="page of the document"></div><p class="muted" id="page-caption"></p></section>
<section id="item">
<div class="muted" id="position">Loading the queue…</div>
<h2 id="subject"></h2>
<p><span class="pill warn tier" id="tier"></span> <span id="reason"></span></p>
<div><strong>Truth</strong><pre id="truth"></pre></div>
<ol id="systems"></ol>
<div id="editor" hidden><label for="edit-value"><strong>New truth</strong> (<kbd>Enter</kbd> saves a field, <kbd>Ctrl</kbd>+<kbd>Enter</kbd> a page, <kbd>Esc</kbd> cancels)</label><textarea id="edit-value"></textarea></div>
<p><label>Note for truth-changes.jsonl <input id="note" autocomplete="off"></label></p>
<p class="keys"><kbd>1</kbd>–<kbd>9</kbd> accept a system's value · <kbd>e</kbd> edit · <kbd>k</kbd> keep the truth · <kbd>s</kbd> skip · <kbd>u</kbd> undo · <kbd>←</kbd> back</p>
</section></div>
<script type="application/json" id="review-data">{{data}}</script>
<script type="module">{{script}}</script>
</body></html>`);

function runRow(run: ListedRun, all: readonly ListedRun[], modes: readonly Mode[]) {
  const base = `/runs/${encodeURIComponent(run.name)}/`;
  const previous = run.summary ? findPreviousRun(all, run) : null;
  const status = run.manifest.status;
  return {
    name: run.name,
    date: formatDate(run.manifest.created_at),
    dataset: `${run.manifest.dataset.name}${run.manifest.dataset.version ? ` v${run.manifest.dataset.version}` : ''}`,
    service: describeServiceUrl(run.manifest.service.base_url),
    status,
    statusTone: status === 'completed' ? 'good' : 'warn',
    progress: run.in_progress
      ? { ...run.progress, text: `${run.progress.recorded} of ${run.progress.planned} calls` }
      : null,
    documents: run.manifest.dataset.documents_selected,
    f1: modes.map((mode) =>
      formatPercent((run.summary ? run.summary.systems[run.summary.primary]?.extraction[mode]?.f1 : null) ?? null),
    ),
    runHref: base,
    reportHref: run.has_report && !run.in_progress ? `${base}${RUN_DIR_FILES.reportHtml}` : null,
    reviewHref: `/review/${encodeURIComponent(run.name)}`,
    diffHref: previous ? `/diff/${encodeURIComponent(previous.name)}/${encodeURIComponent(run.name)}` : null,
    diffBase: previous?.name ?? null,
  };
}

export function renderIndexPage(
  reportsLabel: string,
  runs: readonly ListedRun[],
  skipped: readonly { name: string; reason: string }[],
): Page {
  const modes = MODES.filter((mode) => runs.some((r) => r.summary?.systems[r.summary.primary]?.extraction[mode]));
  const inProgress = runs.filter((r) => r.in_progress && r.manifest.status === 'running').length;
  return {
    html: INDEX({
      version: DOCBENCH_VERSION,
      reportsLabel,
      runs: runs.map((r) => runRow(r, runs, modes)),
      modeColumns: modes,
      skipped,
      inProgress,
      refresh: inProgress > 0,
    }),
    csp: STATIC_CSP,
  };
}

export function renderProgressPage(run: ListedRun): Page {
  return {
    html: PROGRESS({
      name: run.name,
      dataset: run.manifest.dataset.name,
      service: describeServiceUrl(run.manifest.service.base_url),
      date: formatDate(run.manifest.created_at),
      status: run.manifest.status,
      running: run.manifest.status === 'running',
      ...run.progress,
    }),
    csp: STATIC_CSP,
  };
}

export function renderMessagePage(title: string, message: string, hint?: string): Page {
  return { html: MESSAGE({ title, message, hint }), csp: STATIC_CSP };
}

/** The review shell; the queue comes from the API, `pageSize` items a request (authenticated by the session cookie: no token in the page). */
export function renderReviewPage(run: string, pageSize: number, script: ReviewScript): Page {
  const base = `/runs/${encodeURIComponent(run)}/`;
  return {
    html: REVIEW({
      run,
      reportHref: `${base}${RUN_DIR_FILES.reportHtml}`,
      data: toScriptJsonHtml({ run, api: `/api/runs/${encodeURIComponent(run)}/`, page_size: pageSize }),
      script: new Handlebars.SafeString(script.text),
    }),
    csp: `${BASE_CSP}; img-src 'self'; connect-src 'self'; script-src '${script.hash}'`,
  };
}
