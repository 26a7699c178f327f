/** summary.md's rule checks (docs/checks.md, "Reports"): per system the pass rates, then the first failing checks. */
import { escapeMarkdown, formatCount } from '../../render/index.js';
import type { ReportView } from '../view-types.js';

const LISTED_FAILURES = 15;

export function checkLines(view: ReportView): string[] {
  const section = view.checks;
  if (!section) return [];
  const { categories } = section;
  const lines = [
    '## Rule checks',
    '',
    `| System | Macro pass rate | 95% interval | Passed | ${categories.map(escapeMarkdown).join(' | ')} |`,
    `|---|---:|---:|---:|${categories.map(() => '---:').join('|')}|`,
  ];
  for (const s of section.systems) {
    lines.push(
      `| ${escapeMarkdown(s.name)} | ${s.macro_text} | ${s.ci_text} | ${s.passed}/${s.total} | ${s.cells.join(' | ')} |`,
    );
  }
  lines.push('');
  if (section.unsupported.length > 0) {
    lines.push(
      `${formatCount(section.unsupported.length)} math checks are not decided by docbench and count in no rate: ${section.unsupported
        .slice(0, 10)
        .map((id) => `\`${escapeMarkdown(id)}\``)
        .join(', ')}${section.unsupported.length > 10 ? ' …' : ''}.`,
      '',
    );
  }
  if (section.failures.length > 0) {
    lines.push('| System | Document | Check | Page | Why it failed |', '|---|---|---|---:|---|');
    for (const f of section.failures.slice(0, LISTED_FAILURES))
      lines.push(
        `| ${escapeMarkdown(f.system)} | ${escapeMarkdown(f.document)} | ${escapeMarkdown(f.id)} (${f.type}) | ${f.page} | ${escapeMarkdown(f.explanation)} |`,
      );
    if (section.failures.length > LISTED_FAILURES)
      lines.push(
        '',
        `${formatCount(section.failures.length - LISTED_FAILURES)} more failing checks in report.html and junit.xml.`,
      );
    lines.push('');
  }
  return lines;
}
