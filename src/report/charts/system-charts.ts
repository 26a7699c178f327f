/**
 * The leaderboard's two charts: each system's headline accuracy (with its bootstrap 95% interval as a
 * vertical bar) against its cost per document and against its p50 latency. One point per system; a system
 * without a price (or, for latency, with no measured latency, as stored outputs) is named under the chart
 * rather than drawn at a made-up zero.
 */
import {
  type ChartView,
  SERIES_CLASSES,
  createFrame,
  formatMs,
  formatPercent,
  formatUsd,
  linearScale,
  logScale,
  px,
  unitTicks,
} from '../../render/index.js';

const WIDTH = 520;
const HEIGHT = 320;
const MARGINS = { top: 28, right: 24, bottom: 44, left: 52 };

export interface SystemPoint {
  system: string;
  /** Position of the system in the run, for its colour. */
  index: number;
  accuracy: number;
  ci95: [number, number] | null;
  /** The x value; null: not known for this system. */
  x: number | null;
}

/**
 * @param axis what x is: `cost` (USD per document) or `latency` (p50 ms); both on a log scale, since
 *   systems differ by orders of magnitude.
 */
export function buildSystemChart(
  points: readonly SystemPoint[],
  axis: 'cost' | 'latency',
  accuracyLabel: string,
): ChartView | null {
  const drawn = points.filter((p) => p.x !== null && p.x > 0);
  if (drawn.length === 0) return null;
  const format = axis === 'cost' ? formatUsd : formatMs;
  const xs = drawn.map((p) => p.x!);
  const x = logScale(Math.min(...xs) / 1.5, Math.max(...xs) * 1.5, [MARGINS.left, WIDTH - MARGINS.right], format);
  const y = linearScale([0, 1], [HEIGHT - MARGINS.bottom, MARGINS.top], unitTicks());
  const xTitle = axis === 'cost' ? 'cost per document, USD (log scale)' : 'p50 latency per call (log scale)';
  const chart = createFrame({
    label: `${accuracyLabel} against ${axis === 'cost' ? 'cost' : 'latency'}, one point per system`,
    width: WIDTH,
    height: HEIGHT,
    margins: MARGINS,
    x,
    y,
    xTitle,
    yTitle: accuracyLabel,
  });
  for (const point of drawn) {
    const cls = SERIES_CLASSES[point.index % SERIES_CLASSES.length]!;
    const cx = x(point.x!);
    const interval = point.ci95
      ? ` (95% interval ${formatPercent(point.ci95[0])} to ${formatPercent(point.ci95[1])})`
      : '';
    if (point.ci95)
      chart.paths.push({
        d: `M${cx} ${y(point.ci95[0])} L${cx} ${y(point.ci95[1])} M${px(cx - 5)} ${y(point.ci95[0])} L${px(cx + 5)} ${y(point.ci95[0])} M${px(cx - 5)} ${y(point.ci95[1])} L${px(cx + 5)} ${y(point.ci95[1])}`,
        cls: `interval ${cls}`,
      });
    chart.circles.push({
      cx,
      cy: y(point.accuracy),
      r: 7,
      cls: `marker ${cls}`,
      title: `${point.system}: ${formatPercent(point.accuracy)}${interval} at ${format(point.x)}`,
    });
    chart.texts.push({
      x: px(cx + 10),
      y: px(y(point.accuracy) + 4),
      text: point.system,
      anchor: 'start',
      cls: 'label',
    });
  }
  for (const point of points)
    chart.legend.push({
      cls: SERIES_CLASSES[point.index % SERIES_CLASSES.length]!,
      label:
        point.x !== null && point.x > 0
          ? point.system
          : `${point.system} (${axis === 'cost' ? 'no price' : 'no latency measured'}: not drawn)`,
    });
  return chart;
}
