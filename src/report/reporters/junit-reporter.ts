/**
 * junit.xml: a testsuite per system with one testcase per document, failing when that system's calls for the
 * document errored or the gate put it below a per-document threshold (gate.json document_failures); and, when
 * there is a gate, one testcase per gate check. Counts agree with gate.json by construction: both come from it.
 */
import { RUN_DIR_FILES, runDirPath } from '../../run-dir/index.js';
import { writeFileAtomic } from '../../fs-utils.js';
import type { ReportView } from '../view-types.js';
import type { Reporter } from './reporter.js';
import { toCheckSuites } from './junit-checks.js';

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
  const suites: string[] = [];
  let failures = 0;
  let tests = 0;
  let totalMs = 0;
  for (const system of view.systems) {
    const cases: string[] = [];
    let suiteFailures = 0;
    let suiteMs = 0;
    for (const row of view.documents.rows) {
      const cell = row.systems.find((c) => c.system === system.name);
      if (!cell) continue;
      const ms = Object.values(cell.latency_ms).reduce<number>((sum, v) => sum + (v ?? 0), 0);
      suiteMs += ms;
      const errored = cell.status !== 'ok';
      const belowGate = cell.gate_reasons.length > 0;
      let body = '';
      if (errored || belowGate) {
        suiteFailures++;
        const lines = [
          ...(errored ? [`status ${cell.status}`, ...cell.errors] : []),
          ...cell.gate_reasons.map((r) => `below gate: ${r}`),
        ];
        const type = errored ? 'call-failed' : 'below-gate';
        const message = errored ? (cell.errors[0] ?? `status ${cell.status}`) : cell.gate_reasons.join('; ');
        body = `\n      <failure${attr('type', type)}${attr('message', message)}>${escapeXml(lines.join('\n'))}</failure>${cell.dashboard_url ? `\n      <system-out>${escapeXml(`dashboard: ${cell.dashboard_url}`)}</system-out>` : ''}\n    `;
      } else if (cell.dashboard_url) {
        body = `\n      <system-out>${escapeXml(`dashboard: ${cell.dashboard_url}`)}</system-out>\n    `;
      }
      cases.push(
        `    <testcase${attr('classname', `${classname}.${system.name}`)}${attr('name', row.id)}${attr('time', seconds(ms))}>${body}</testcase>`,
      );
    }
    failures += suiteFailures;
    tests += cases.length;
    totalMs += suiteMs;
    suites.push(
      `  <testsuite${attr('name', `documents · ${system.name}`)}${attr('tests', cases.length)}${attr('failures', suiteFailures)}${attr('errors', 0)}${attr('skipped', 0)}${attr('time', seconds(suiteMs))}>\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  const checks = toCheckSuites(view, classname, attr, escapeXml);
  suites.push(...checks.suites);
  tests += checks.tests;
  failures += checks.failures;
  let gateFailures = 0;
  if (view.gate) {
    const checks = view.gate.checks.map((check) => {
      const name = `${check.system ? `${check.system}: ` : ''}${check.metric}${check.scope ? ` [${check.scope}]` : ''} ${check.threshold_text}`;
      if (check.passed)
        return `    <testcase${attr('classname', `${classname}.gate`)}${attr('name', name)}${attr('time', '0')}/>`;
      gateFailures++;
      return `    <testcase${attr('classname', `${classname}.gate`)}${attr('name', name)}${attr('time', '0')}>\n      <failure${attr('type', 'gate-check')}${attr('message', check.message)}>${escapeXml(`actual ${check.actual_text}, required ${check.threshold_text}`)}</failure>\n    </testcase>`;
    });
    suites.push(
      `  <testsuite${attr('name', 'quality gate')}${attr('tests', view.gate.checks.length)}${attr('failures', gateFailures)}${attr('errors', 0)}${attr('skipped', 0)}${attr('time', '0')}>\n${checks.join('\n')}\n  </testsuite>`,
    );
    tests += view.gate.checks.length;
  }
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
