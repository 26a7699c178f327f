/**
 * junit.xml's rule checks (docs/checks.md, "Reports"): a testsuite per system with one testcase per check of
 * each document, a failed check a failure whose message is its explanation, an undecided (math) check skipped.
 */
import type { ReportView } from '../view-types.js';

export interface CheckSuites {
  suites: string[];
  tests: number;
  failures: number;
}

export function toCheckSuites(
  view: ReportView,
  classname: string,
  attr: (name: string, value: string | number) => string,
  escapeXml: (value: string) => string,
): CheckSuites {
  const out: CheckSuites = { suites: [], tests: 0, failures: 0 };
  for (const system of view.systems) {
    const cases: string[] = [];
    let failed = 0;
    let skipped = 0;
    for (const row of view.documents.rows) {
      const checks = row.systems.find((c) => c.system === system.name)?.checks;
      if (!checks) continue;
      const open = (id: string) =>
        `    <testcase${attr('classname', `${classname}.checks.${system.name}`)}${attr('name', `${row.id} · ${id}`)}${attr('time', '0')}`;
      for (const id of checks.passed_ids) cases.push(`${open(id)}/>`);
      for (const check of checks.failed) {
        failed++;
        const detail = `page ${check.page}, ${check.type} check, category ${check.category}: ${check.explanation}`;
        cases.push(
          `${open(check.id)}>\n      <failure${attr('type', 'check-failed')}${attr('message', check.explanation)}>${escapeXml(detail)}</failure>\n    </testcase>`,
        );
      }
      for (const id of checks.unsupported) {
        skipped++;
        cases.push(
          `${open(id)}>\n      <skipped${attr('message', 'math checks are not decided by docbench')}/>\n    </testcase>`,
        );
      }
    }
    if (cases.length === 0) continue;
    out.tests += cases.length;
    out.failures += failed;
    out.suites.push(
      `  <testsuite${attr('name', `checks · ${system.name}`)}${attr('tests', cases.length)}${attr('failures', failed)}${attr('errors', 0)}${attr('skipped', skipped)}${attr('time', '0')}>\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return out;
}
