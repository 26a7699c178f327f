/**
 * Fast vs slow: each document's field F1 against its extract latency, one colour per mode, with each mode's
 * p50 latency and micro F1 as a large marker. Log-scaled latency; documents sampled when there are many.
 */
import {
  formatMs,
  formatPercent,
  type ChartView,
  SERIES_CLASSES,
  createFrame,
  linearScale,
  logScale,
  px,
  sampleEvenly,
  unitTicks,
} from '../../render/index.js';

const WIDTH = 560;
const HEIGHT = 340;
const MARGINS = { top: 28, right: 20, bottom: 44, left: 52 };
const POINT_LIMIT = 600;

export interface ModeSeries {
  mode: string;
  points: { id: string; latency: number; f1: number }[];
  p50: number | null;
  f1: number | null;
}

export function buildAccuracyLatencyChart(series: ModeSeries[]): ChartView {
  const latencies = series.flatMap((s) => [...s.points.map((p) => p.latency), s.p50 ?? 0]).filter((v) => v > 0);
  const x = logScale(
    latencies.length ? Math.min(...latencies.slice(0, 50_000)) : 100,
    latencies.length ? Math.max(...latencies.slice(0, 50_000)) : 1000,
    [MARGINS.left, WIDTH - MARGINS.right],
    formatMs,
  );
  const y = linearScale([0, 1], [HEIGHT - MARGINS.bottom, MARGINS.top], unitTicks());
  const chart = createFrame({
    label: 'Field F1 against latency per mode',
    width: WIDTH,
    height: HEIGHT,
    margins: MARGINS,
    x,
    y,
    xTitle: 'extract latency per document (log scale)',
    yTitle: 'field F1',
  });
  series.forEach((s, index) => {
    const cls = SERIES_CLASSES[index % SERIES_CLASSES.length]!;
    for (const point of sampleEvenly(s.points, POINT_LIMIT)) {
      chart.circles.push({
        cx: x(point.latency),
        cy: y(point.f1),
        r: 2.6,
        cls: `dot ${cls}`,
        title: `${point.id} (${s.mode}): F1 ${formatPercent(point.f1)}, ${formatMs(point.latency)}`,
      });
    }
    const sampled = s.points.length > POINT_LIMIT ? ` (${POINT_LIMIT} of ${s.points.length} documents shown)` : '';
    chart.legend.push({ cls, label: `${s.mode}${sampled}` });
  });
  series.forEach((s, index) => {
    if (s.p50 === null || s.f1 === null) return;
    const cls = SERIES_CLASSES[index % SERIES_CLASSES.length]!;
    chart.circles.push({
      cx: x(s.p50),
      cy: y(s.f1),
      r: 8,
      cls: `marker ${cls}`,
      title: `${s.mode}: micro F1 ${formatPercent(s.f1)} at p50 ${formatMs(s.p50)}`,
    });
    chart.texts.push({ x: px(x(s.p50) + 11), y: px(y(s.f1) + 4), text: s.mode, anchor: 'start', cls: 'label' });
  });
  return chart;
}
