/**
 * summary.md's "reading or extraction" section (docs/metrics/extraction.md, "Reading or extraction"): per system and
 * mode, its missed fields split by whether the truth value was in its own markdown, as report.html shows them.
 */
import { escapeMarkdown } from '../../render/index.js';
import type { ReportView } from '../view-types.js';

export function readingLines(view: ReportView): string[] {
  const rows = view.reading.rows;
  if (rows.length === 0) return [];
  const lines = [
    '## Reading or extraction: whose fault is a miss?',
    '',
    'A missed field whose truth value is not in the system’s own markdown was not read; one that is there was read but not extracted.',
    '',
    '| System | Mode | Missed fields | Not in its text | In its text | Mostly |',
    '|---|---|---:|---:|---:|---|',
  ];
  for (const row of rows)
    lines.push(
      `| ${escapeMarkdown(row.system)} | ${row.mode} | ${row.misses} | ${row.not_in_text} (${row.not_in_text_share}) | ${row.in_text} (${row.in_text_share}) | ${escapeMarkdown(row.verdict)} |`,
    );
  lines.push('');
  return lines;
}
