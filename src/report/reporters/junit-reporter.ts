/**
 * junit.xml: one testcase per document, failing when the document's calls errored or the gate put it below
 * a per-document threshold (gate.json document_failures); and, when there is a gate, one testcase per gate
 * check. Counts agree with gate.json by construction: both come from it.
 */
import { RUN_DIR_FILES, runDirPath } from '../../run-dir/index.js';
import { writeFileAtomic } from '../../fs-utils.js';
import type { ReportView } from '../view-types.js';
import type { Reporter } from './reporter.js';

/**
 * Text for XML content and attribute values. Hand-written (five entities and a filter) rather than an XML
 * library: characters XML 1.0 forbids (most C0 controls, lone surrogates, U+FFFE/FFFF) are dropped, since
 * no escape can represent them and CI parsers reject the whole file otherwise.
 */
export function escapeXml(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!);
}

function attr(name: string, value: string | number): string {
  return ` ${name}="${escapeXml(String(value))}"`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

export function toJunitXml(view: ReportView): string {
  const suiteName = `docbench ${view.header.dataset.name}`;
  const classname = `docbench.${view.header.dataset.name}`;
  const cases: string[] = [];
  let failures = 0;
  let totalMs = 0;
  for (const row of view.documents.rows) {
    const ms = Object.values(row.latency_ms).reduce<number>((sum, v) => sum + (v ?? 0), 0);
    totalMs += ms;
    const errored = row.status !== 'ok';
    const belowGate = row.gate_reasons.length > 0;
    let body = '';
    if (errored || belowGate) {
      failures++;
      const lines = [...(errored ? [`status ${row.status}`, ...row.errors] : []), ...row.gate_reasons.map((r) => `below gate: ${r}`)];
      const type = errored ? 'call-failed' : 'below-gate';
      const message = errored ? (row.errors[0] ?? `status ${row.status}`) : row.gate_reasons.join('; ');
      body = `\n      <failure${attr('type', type)}${attr('message', message)}>${escapeXml(lines.join('\n'))}</failure>${row.dashboard_url ? `\n      <system-out>${escapeXml(`dashboard: ${row.dashboard_url}`)}</system-out>` : ''}\n    `;
    } else if (row.dashboard_url) {
      body = `\n      <system-out>${escapeXml(`dashboard: ${row.dashboard_url}`)}</system-out>\n    `;
    }
    cases.push(`    <testcase${attr('classname', classname)}${attr('name', row.id)}${attr('time', seconds(ms))}>${body}</testcase>`);
  }
  const suites = [`  <testsuite${attr('name', 'documents')}${attr('tests', view.documents.rows.length)}${attr('failures', failures)}${attr('errors', 0)}${attr('skipped', 0)}${attr('time', seconds(totalMs))}>\n${cases.join('\n')}\n  </testsuite>`];
  let gateFailures = 0;
  if (view.gate) {
    const checks = view.gate.checks.map((check) => {
      const name = `${check.metric}${check.scope ? ` [${check.scope}]` : ''} ${check.threshold_text}`;
      if (check.passed) return `    <testcase${attr('classname', `${classname}.gate`)}${attr('name', name)}${attr('time', '0')}/>`;
      gateFailures++;
      return `    <testcase${attr('classname', `${classname}.gate`)}${attr('name', name)}${attr('time', '0')}>\n      <failure${attr('type', 'gate-check')}${attr('message', check.message)}>${escapeXml(`actual ${check.actual_text}, required ${check.threshold_text}`)}</failure>\n    </testcase>`;
    });
    suites.push(`  <testsuite${attr('name', 'quality gate')}${attr('tests', view.gate.checks.length)}${attr('failures', gateFailures)}${attr('errors', 0)}${attr('skipped', 0)}${attr('time', '0')}>\n${checks.join('\n')}\n  </testsuite>`);
  }
  const tests = view.documents.rows.length + (view.gate?.checks.length ?? 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attr('name', suiteName)}${attr('tests', tests)}${attr('failures', failures + gateFailures)}${attr('errors', 0)}${attr('time', seconds(totalMs))}>\n${suites.join('\n')}\n</testsuites>\n`;
}

export const junitReporter: Reporter = {
  format: 'junit',
  output: RUN_DIR_FILES.junit,
  async write({ runDir, view }) {
    const file = runDirPath(runDir, 'junit');
    await writeFileAtomic(file, toJunitXml(view));
    return [file];
  },
};
