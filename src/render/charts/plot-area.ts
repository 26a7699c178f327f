/**
 * Scales, axes and path strings for the report's SVG charts. Hand-written rather than a charting library:
 * the charts are four simple plots, must be inline SVG with no script, and every library fit for that
 * (d3-scale, d3-shape) would still need this layout code around it.
 */
import type { ChartView } from './chart-types.js';

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Maps a data value to a pixel coordinate. */
export interface Scale {
  (value: number): number;
  ticks: { value: number; label: string }[];
}

/** Rounds to 0.1 px: enough for a crisp chart, and keeps the file small. */
export function px(value: number): number {
  return Math.round(value * 10) / 10;
}

export function linearScale(
  domain: [number, number],
  range: [number, number],
  ticks: { value: number; label: string }[],
): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  const scale = ((value: number) => px(r0 + ((Math.min(Math.max(value, d0), d1) - d0) / span) * (r1 - r0))) as Scale;
  scale.ticks = ticks;
  return scale;
}

/** Log10 scale with 1-2-5 ticks; values below the domain are clamped to it. */
export function logScale(min: number, max: number, range: [number, number], format: (value: number) => string): Scale {
  // An infinite bound would make the decade loop below endless: a caller's bug, so fail loudly.
  if (!Number.isFinite(min) || !Number.isFinite(max))
    throw new Error(`logScale(${min}, ${max}): the domain must be finite`);
  const lo = 10 ** Math.floor(Math.log10(Math.max(min, 1e-3)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(max, lo * 10)));
  const [r0, r1] = range;
  const span = Math.log10(hi) - Math.log10(lo);
  const scale = ((value: number) =>
    px(r0 + ((Math.log10(Math.min(Math.max(value, lo), hi)) - Math.log10(lo)) / span) * (r1 - r0))) as Scale;
  const ticks: { value: number; label: string }[] = [];
  for (let decade = lo; decade <= hi * 1.0001; decade *= 10) {
    for (const step of span <= 2 ? [1, 2, 5] : [1]) {
      const value = decade * step;
      if (value <= hi * 1.0001) ticks.push({ value, label: format(value) });
    }
  }
  scale.ticks = ticks;
  return scale;
}

/** Ticks 0, 0.2 … 1 labelled as percentages. */
export function unitTicks(step = 0.2): { value: number; label: string }[] {
  const ticks: { value: number; label: string }[] = [];
  for (let i = 0; i <= Math.round(1 / step); i++)
    ticks.push({ value: i * step, label: `${Math.round(i * step * 100)}%` });
  return ticks;
}

/** `M x y L x y …` from points; numbers only. */
export function linePath(points: [number, number][]): string {
  return points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${px(x)} ${px(y)}`).join(' ');
}

/** An empty chart frame with grid lines and tick labels for both axes. */
export function createFrame(options: {
  label: string;
  width: number;
  height: number;
  margins: Margins;
  x: Scale;
  y: Scale;
  xTitle: string;
  yTitle: string;
}): ChartView {
  const { width, height, margins, x, y } = options;
  const chart: ChartView = {
    label: options.label,
    width,
    height,
    paths: [],
    rects: [],
    circles: [],
    texts: [],
    legend: [],
  };
  const grid: string[] = [];
  for (const tick of x.ticks) {
    const xx = x(tick.value);
    grid.push(`M${xx} ${margins.top} L${xx} ${height - margins.bottom}`);
    chart.texts.push({ x: xx, y: height - margins.bottom + 16, text: tick.label, anchor: 'middle', cls: 'tick' });
  }
  for (const tick of y.ticks) {
    const yy = y(tick.value);
    grid.push(`M${margins.left} ${yy} L${width - margins.right} ${yy}`);
    chart.texts.push({ x: margins.left - 6, y: px(yy + 4), text: tick.label, anchor: 'end', cls: 'tick' });
  }
  chart.paths.push({ d: grid.join(' '), cls: 'grid' });
  chart.paths.push({
    d: `M${margins.left} ${margins.top} L${margins.left} ${height - margins.bottom} L${width - margins.right} ${height - margins.bottom}`,
    cls: 'axis',
  });
  chart.texts.push({
    x: px((margins.left + width - margins.right) / 2),
    y: height - 6,
    text: options.xTitle,
    anchor: 'middle',
    cls: 'axis-title',
  });
  chart.texts.push({ x: 12, y: margins.top - 10, text: options.yTitle, anchor: 'start', cls: 'axis-title' });
  return chart;
}

/** Every n-th item so that at most `limit` remain, in order: a deterministic sample for dense plots. */
export function sampleEvenly<T>(items: readonly T[], limit: number): T[] {
  if (items.length <= limit) return [...items];
  const step = items.length / limit;
  const out: T[] = [];
  for (let i = 0; i < limit; i++) out.push(items[Math.floor(i * step)]!);
  return out;
}
