/**
 * Latency per endpoint and mode: a box from p50 to p95 with a whisker to p99 and a dot at the max (figures
 * from summary.json), over a strip of individual documents' latencies (sampled when there are many).
 * Log scale: fast and slow modes differ by an order of magnitude.
 */
import type { LatencyBlock } from '../../run-dir/index.js';
import {
  formatMs,
  type ChartView,
  SERIES_CLASSES,
  createFrame,
  logScale,
  px,
  sampleEvenly,
} from '../../render/index.js';

const ROW = 46;
const MARGINS = { top: 28, right: 24, bottom: 44, left: 110 };
const WIDTH = 760;
const STRIP_LIMIT = 400;

export function buildLatencyChart(blocks: { key: string; block: LatencyBlock; values: number[] }[]): ChartView | null {
  const rows = blocks.filter((b) => b.block.count > 0 && b.block.max !== null);
  if (rows.length === 0) return null;
  const all = rows.flatMap((r) => [r.block.max ?? 0, r.block.p50 ?? 0, ...r.values]).filter((v) => v > 0);
  // Nothing measured above zero (stored answers, or every call from the cache): no axis to draw.
  if (all.length === 0) return null;
  const min = Math.min(...all.slice(0, 50_000));
  const max = Math.max(...all.slice(0, 50_000));
  const height = MARGINS.top + MARGINS.bottom + rows.length * ROW;
  const x = logScale(min, max, [MARGINS.left, WIDTH - MARGINS.right], formatMs);
  const yTicks = { ticks: [] as { value: number; label: string }[] };
  const y = Object.assign((v: number) => v, yTicks);
  const chart = createFrame({
    label: 'Latency per endpoint and mode',
    width: WIDTH,
    height,
    margins: MARGINS,
    x,
    y,
    xTitle: 'client wall time per call (log scale)',
    yTitle: '',
  });
  rows.forEach((row, index) => {
    const cls = SERIES_CLASSES[index % SERIES_CLASSES.length]!;
    const mid = MARGINS.top + index * ROW + ROW / 2;
    chart.texts.push({ x: MARGINS.left - 8, y: px(mid + 4), text: row.key, anchor: 'end', cls: 'label' });
    for (const value of sampleEvenly(row.values, STRIP_LIMIT)) {
      // Deterministic jitter from the value itself, so rebuilt reports are identical.
      const jitter = ((Math.round(value * 7919) % 17) - 8) * 0.9;
      chart.circles.push({
        cx: x(value),
        cy: px(mid + 12 + jitter * 0.4),
        r: 1.6,
        cls: `dot ${cls}`,
        title: formatMs(value),
      });
    }
    const { p50, p95, p99, max: worst } = row.block;
    if (p50 !== null && p95 !== null) {
      const title = `${row.key}: p50 ${formatMs(p50)}, p95 ${formatMs(p95)}, p99 ${formatMs(p99)}, max ${formatMs(worst)} (${row.block.count} calls, ${row.block.failed} failed)`;
      if (p99 !== null)
        chart.paths.push({
          d: `M${x(p95)} ${px(mid - 4)} L${x(p99)} ${px(mid - 4)} M${x(p99)} ${px(mid - 9)} L${x(p99)} ${px(mid + 1)}`,
          cls: `whisker ${cls}`,
        });
      chart.rects.push({
        x: x(p50),
        y: px(mid - 11),
        width: px(Math.max(x(p95) - x(p50), 2)),
        height: 14,
        cls: `box ${cls}`,
        title,
      });
      chart.paths.push({ d: `M${x(p50)} ${px(mid - 13)} L${x(p50)} ${px(mid + 5)}`, cls: 'median' });
      if (worst !== null)
        chart.circles.push({ cx: x(worst), cy: px(mid - 4), r: 3, cls: `max ${cls}`, title: `max ${formatMs(worst)}` });
    }
  });
  chart.legend.push(
    { cls: 'box', label: 'box: p50 to p95' },
    { cls: 'whisker', label: 'whisker: to p99' },
    { cls: 'max', label: 'dot: max' },
    {
      cls: 'dot',
      label: `small dots: documents${rows.some((r) => r.values.length > STRIP_LIMIT) ? ` (${STRIP_LIMIT} sampled per row)` : ''}`,
    },
  );
  return chart;
}
