/**
 * Trend charts for index.html: per dataset, the headline metrics and p95 latency over time, one point per
 * run and series (a run that did not measure a series has no point in it). Built on the report's plot helpers,
 * so positions and paths are numbers only and every text goes through the template's escaping.
 */
import {
  type ChartView,
  SERIES_CLASSES,
  createFrame,
  linePath,
  linearScale,
  px,
  type Scale,
  formatMs,
  formatPercent,
} from '../render/index.js';
import type { HistoryRow } from './history.js';

const WIDTH = 600;
const HEIGHT = 280;
const MARGINS = { top: 30, right: 24, bottom: 46, left: 64 };

interface Series {
  label: string;
  pick: (row: HistoryRow) => number | null;
}

const QUALITY: Series[] = [
  { label: 'Field F1 slow', pick: (r) => r.f1_slow },
  { label: 'Field F1 fast', pick: (r) => r.f1_fast },
  { label: 'Exact match slow', pick: (r) => r.exact_match_slow },
  { label: 'Exact match fast', pick: (r) => r.exact_match_fast },
  { label: 'Markdown similarity', pick: (r) => r.similarity },
];

const LATENCY: Series[] = [
  { label: 'p95 extract:slow', pick: (r) => r.p95_ms_extract_slow },
  { label: 'p95 extract:fast', pick: (r) => r.p95_ms_extract_fast },
  { label: 'p95 compare', pick: (r) => r.p95_ms_compare },
];

/** x: run time. Runs at the same instant (or a single run) are spread evenly instead. */
function timeScale(runs: readonly HistoryRow[]): { x: (index: number) => number; scale: Scale } {
  const times = runs.map((r) => Date.parse(r.created_at));
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  const range: [number, number] = [MARGINS.left + 12, WIDTH - MARGINS.right - 12];
  // Runs within a few days of each other need the hour to tell the ticks apart.
  const label = (t: number) =>
    new Date(t)
      .toISOString()
      .slice(0, hi - lo < 3 * 86_400_000 ? 16 : 10)
      .replace('T', ' ');
  if (!(hi > lo)) {
    const scale = linearScale([0, Math.max(1, runs.length - 1)], range, [{ value: 0, label: label(lo) }]);
    return { x: (i) => (runs.length === 1 ? px((range[0] + range[1]) / 2) : scale(i)), scale };
  }
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => lo + f * (hi - lo)).map((value) => ({ value, label: label(value) }));
  const scale = linearScale([lo, hi], range, ticks);
  return { x: (i) => scale(times[i]!), scale };
}

function plot(
  runs: readonly HistoryRow[],
  series: Series[],
  options: {
    label: string;
    yTitle: string;
    domain: [number, number];
    ticks: { value: number; label: string }[];
    format: (v: number) => string;
  },
): ChartView | null {
  const present = series.filter((s) => runs.some((r) => s.pick(r) !== null));
  if (present.length === 0) return null;
  const { x, scale } = timeScale(runs);
  const y = linearScale(options.domain, [HEIGHT - MARGINS.bottom, MARGINS.top], options.ticks);
  const chart = createFrame({
    label: options.label,
    width: WIDTH,
    height: HEIGHT,
    margins: MARGINS,
    x: scale,
    y,
    xTitle: 'run date (UTC)',
    yTitle: options.yTitle,
  });
  present.forEach((s, index) => {
    const cls = SERIES_CLASSES[index % SERIES_CLASSES.length]!;
    const points: [number, number][] = [];
    runs.forEach((run, i) => {
      const value = s.pick(run);
      if (value === null) return;
      const point: [number, number] = [x(i), y(value)];
      points.push(point);
      chart.circles.push({
        cx: point[0],
        cy: point[1],
        r: 3.5,
        cls: `point ${cls}`,
        title: `${s.label}: ${options.format(value)} · run ${run.run_id} · ${run.created_at}`,
      });
    });
    if (points.length > 1) chart.paths.push({ d: linePath(points), cls: `line ${cls}` });
    chart.legend.push({ cls, label: s.label });
  });
  return chart;
}

/** The quality chart (rates, zoomed to the data) and the p95 latency chart of one dataset's runs, in time order. */
export function buildTrendCharts(runs: readonly HistoryRow[]): ChartView[] {
  const rates = runs.flatMap((r) => QUALITY.map((s) => s.pick(r)).filter((v): v is number => v !== null));
  const lowest = rates.length ? Math.max(0, Math.floor((Math.min(...rates) - 0.02) * 10) / 10) : 0;
  const step = 1 - lowest > 0.5 ? 0.2 : 0.1;
  const rateTicks: { value: number; label: string }[] = [];
  for (let v = lowest; v <= 1 + 1e-9; v += step)
    rateTicks.push({ value: Math.round(v * 100) / 100, label: formatPercent(v, 0) });
  const quality = plot(runs, QUALITY, {
    label: 'Headline metrics per run',
    yTitle: 'score',
    domain: [lowest, 1],
    ticks: rateTicks,
    format: (v) => formatPercent(v),
  });

  const latencies = runs.flatMap((r) => LATENCY.map((s) => s.pick(r)).filter((v): v is number => v !== null));
  const top = latencies.length ? Math.max(...latencies) * 1.1 || 1 : 1;
  const latencyTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => ({ value: f * top, label: formatMs(f * top) }));
  const latency = plot(runs, LATENCY, {
    label: 'p95 latency per run (client wall time)',
    yTitle: 'p95 latency',
    domain: [0, top],
    ticks: latencyTicks,
    format: formatMs,
  });
  return [quality, latency].filter((c): c is ChartView => c !== null);
}
