/**
 * Rule checks in the reports (docs/checks.md, "Reports"): each document's checks per system for the table, the
 * CSV and JUnit, and the report's section listing the failing checks with their explanations, linked to the
 * document's drill-down.
 */
import type { DocumentEvaluation, RunSummary } from '../run-dir/index.js';
import type { DocumentRow } from './view-types.js';
import { formatPercent, formatPercentInterval } from '../render/index.js';

/** One system's checks on one document, as the table, CSV and JUnit read them. */
export interface CheckCells {
  total: number;
  passed: number;
  pass_rate: number | null;
  /** The failing checks, in checks.jsonl's order. */
  failed: FailedCheck[];
  /** Checks docbench does not decide (math). */
  unsupported: string[];
  /** The passing checks' ids. */
  passed_ids: string[];
}

export interface FailedCheck {
  id: string;
  type: string;
  category: string;
  page: number;
  explanation: string;
  texts: string[];
}

type DocumentChecks = NonNullable<DocumentEvaluation['systems'][string]['checks']>;

export function toCheckCells(checks: DocumentChecks | undefined): CheckCells | null {
  if (!checks) return null;
  return {
    total: checks.total,
    passed: checks.passed,
    pass_rate: checks.pass_rate,
    failed: checks.results
      .filter((r) => r.status === 'failed')
      .map(({ id, type, category, page, explanation, texts }) => ({ id, type, category, page, explanation, texts })),
    unsupported: checks.results.filter((r) => r.status === 'unsupported').map((r) => r.id),
    passed_ids: checks.results.filter((r) => r.status === 'passed').map((r) => r.id),
  };
}

/** The report's checks section: per system the rates, then every failing check with where to see it. */
export interface ChecksSectionView {
  /** Every category of any system, in first-seen order: the table's columns. */
  categories: string[];
  systems: {
    name: string;
    cls: string;
    total: number;
    passed: number;
    pass_rate: number | null;
    macro_pass_rate: number | null;
    macro_ci95: [number, number] | null;
    categories: { name: string; total: number; passed: number; pass_rate: number | null }[];
    unsupported: number;
    macro_text: string;
    ci_text: string;
    /** One text per column of `categories`: `87.4% (76/87)`. */
    cells: string[];
  }[];
  failures: {
    system: string;
    document: string;
    drilldown: string;
    id: string;
    type: string;
    category: string;
    page: number;
    explanation: string;
  }[];
  /** Ids of checks left undecided (math), named once. */
  unsupported: string[];
}

/** At most this many failing checks are listed; documents.csv and junit.xml have all of them. */
const LISTED_FAILURES = 500;

export function buildChecksSection(
  summary: RunSummary,
  rows: readonly DocumentRow[],
  systemClass: (name: string) => string,
): ChecksSectionView | null {
  const systems = summary.system_names.flatMap((name) => {
    const block = summary.systems[name]?.checks;
    if (!block) return [];
    return [
      {
        name,
        cls: systemClass(name),
        total: block.total,
        passed: block.passed,
        pass_rate: block.pass_rate,
        macro_pass_rate: block.macro_pass_rate,
        macro_ci95: block.macro_ci95,
        categories: Object.entries(block.by_category).map(([category, c]) => ({ name: category, ...c })),
        unsupported: block.unsupported.total,
        macro_text: formatPercent(block.macro_pass_rate),
        ci_text: block.macro_ci95 ? formatPercentInterval(block.macro_ci95) : '—',
        cells: [] as string[],
      },
    ];
  });
  if (systems.length === 0) return null;
  const categories = [...new Set(systems.flatMap((s) => s.categories.map((c) => c.name)))];
  for (const system of systems) {
    system.cells = categories.map((name) => {
      const c = system.categories.find((x) => x.name === name);
      return c ? `${formatPercent(c.pass_rate)} (${c.passed}/${c.total})` : '—';
    });
  }
  const failures: ChecksSectionView['failures'] = [];
  const unsupported = new Set<string>();
  for (const row of rows) {
    for (const cell of row.systems) {
      for (const id of cell.checks?.unsupported ?? []) unsupported.add(id);
      for (const check of cell.checks?.failed ?? []) {
        if (failures.length >= LISTED_FAILURES) break;
        failures.push({
          system: cell.system,
          document: row.id,
          drilldown: `${row.drilldown}-check-${encodeURIComponent(check.id)}`,
          id: check.id,
          type: check.type,
          category: check.category,
          page: check.page,
          explanation: check.explanation,
        });
      }
    }
  }
  return { categories, systems, failures, unsupported: [...unsupported] };
}

/** A drill-down's check: what it decided on one system's page, and the page's markdown with its text marked. */
export interface CheckBlockView {
  anchor: string;
  system: string;
  id: string;
  type: string;
  category: string;
  page: number;
  status: string;
  tone: 'good' | 'bad' | 'warn';
  explanation: string;
  /** The page's markdown around the check's texts, each occurrence marked; empty when none is found as written. */
  excerpt: { text: string; mark: boolean }[];
}

/** Characters of context kept on either side of a marked text. */
const CONTEXT = 160;

/** The page's markdown around the first occurrence of each text (found case-insensitively, as written). */
function markTexts(page: string, texts: readonly string[]): CheckBlockView['excerpt'] {
  const lower = page.toLowerCase();
  const spans = texts
    .flatMap((text) => {
      const at = text.trim() === '' ? -1 : lower.indexOf(text.toLowerCase());
      return at < 0 ? [] : [{ start: at, end: at + text.length }];
    })
    .sort((a, b) => a.start - b.start);
  if (spans.length === 0) return [];
  const out: CheckBlockView['excerpt'] = [];
  let cursor = Math.max(0, (spans[0]?.start ?? 0) - CONTEXT);
  if (cursor > 0) out.push({ text: '…', mark: false });
  for (const span of spans) {
    if (span.start < cursor) continue;
    if (span.start - cursor > 2 * CONTEXT) {
      out.push({ text: `${page.slice(cursor, cursor + CONTEXT)} … `, mark: false });
      cursor = span.start - CONTEXT;
    }
    out.push(
      { text: page.slice(cursor, span.start), mark: false },
      { text: page.slice(span.start, span.end), mark: true },
    );
    cursor = span.end;
  }
  out.push({ text: page.slice(cursor, cursor + CONTEXT) + (cursor + CONTEXT < page.length ? '…' : ''), mark: false });
  return out;
}

/** Every check of the document per system, failing ones first, with its text marked in the page it read. */
export function buildCheckBlocks(doc: DocumentEvaluation, names: readonly string[], anchor: string): CheckBlockView[] {
  const order = { failed: 0, unsupported: 1, passed: 2 } as const;
  return names
    .flatMap((system) =>
      (doc.systems[system]?.checks?.results ?? []).map((r) => ({
        anchor: `${anchor}-check-${encodeURIComponent(r.id)}`,
        system,
        id: r.id,
        type: r.type,
        category: r.category,
        page: r.page,
        status: r.status,
        tone: r.status === 'passed' ? ('good' as const) : r.status === 'failed' ? ('bad' as const) : ('warn' as const),
        explanation: r.explanation,
        excerpt: markTexts(doc.texts?.systems?.[system]?.[r.page - 1] ?? '', r.texts),
      })),
    )
    .sort((a, b) => order[a.status] - order[b.status]);
}
