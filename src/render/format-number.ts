/** How the reports print numbers: one place, so the HTML, Markdown and terminal agree. */

const DASH = '—';

/** 0.9623 → "96.2%"; null → "—". */
export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return `${(value * 100).toFixed(digits)}%`;
}

/** A rate's interval, as every report prints one: [0.62, 0.951] → "62.0% – 95.1%". */
export function formatPercentInterval(interval: readonly [number, number]): string {
  return `${formatPercent(interval[0])} – ${formatPercent(interval[1])}`;
}

/** A difference of two rates in percentage points: 0.042 → "+4.2 pts". */
export function formatPoints(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const points = value * 100;
  const text = Math.abs(points).toFixed(digits);
  const sign = Number(text) === 0 ? '±' : points > 0 ? '+' : '−';
  return `${sign}${text} pts`;
}

/** Milliseconds: under a second as "850 ms", else seconds "3.42 s". */
export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  if (Math.abs(value) < 1000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} s`;
}

/** A duration for the header: "42 s", "3 min 12 s", "1 h 04 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return DASH;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** 0.8712 → "0.871"; for scores that are not rates (ECE, Brier, AUROC). */
export function formatDecimal(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return value.toFixed(digits);
}

/**
 * 10000 → "10,000", as `toLocaleString('en-US')` writes it (fixed locale so reports do not depend on the
 * machine). Integers are grouped here: the first `toLocaleString` of a process loads ICU's number formats,
 * 20–100 ms of the report phase depending on the machine's load.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en-US');
  const grouped = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 ? `-${grouped}` : grouped;
}

/** An ISO timestamp as "2026-11-21 19:45 UTC". */
export function formatDate(iso: string | null): string {
  if (!iso) return DASH;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Rounds a number for CSV cells: 6 decimals are plenty for rates and keep files small. */
export function roundForCsv(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return Math.round(value * 1e6) / 1e6;
}

/** US dollars with enough digits for per-page prices: 0.0123 → "$0.0123", 12.5 → "$12.50". */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  if (value === 0) return '$0';
  return Math.abs(value) >= 1 ? `$${value.toFixed(2)}` : `$${value.toPrecision(3)}`;
}
