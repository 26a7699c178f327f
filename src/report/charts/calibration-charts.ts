/** Reliability diagram and risk–coverage curve of one mode (docs/metrics/calibration.md), as chart geometry. */
import type { ConfidenceBlock } from '../../run-dir/index.js';
import {
  formatPercent,
  type ChartView,
  createFrame,
  linePath,
  linearScale,
  px,
  unitTicks,
} from '../../render/index.js';

const WIDTH = 380;
const HEIGHT = 300;
const MARGINS = { top: 28, right: 16, bottom: 44, left: 48 };

/**
 * Confidence figures arrive on the service's 0–100 scale (ExtractResult.confidence) but rates are 0–1.
 * summary.json does not state the scale of `mean` and of the bins' `confidence`, so a value above 1 is read
 * as 0–100. Confidences of at most 1 on the 0–100 scale do not occur in practice.
 */
export function toUnitConfidence(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return value > 1 ? value / 100 : value;
}

export function buildReliabilityChart(mode: string, block: ConfidenceBlock): ChartView {
  const x = linearScale([0, 1], [MARGINS.left, WIDTH - MARGINS.right], unitTicks());
  const y = linearScale([0, 1], [HEIGHT - MARGINS.bottom, MARGINS.top], unitTicks());
  const chart = createFrame({
    label: `Reliability diagram, ${mode}`,
    width: WIDTH,
    height: HEIGHT,
    margins: MARGINS,
    x,
    y,
    xTitle: 'confidence',
    yTitle: 'mean field F1 (accuracy)',
  });
  chart.paths.push({
    d: linePath([
      [x(0), y(0)],
      [x(1), y(1)],
    ]),
    cls: 'diagonal',
  });
  for (const bin of block.bins) {
    const lo = bin.lo / 100;
    const hi = bin.hi / 100;
    const accuracy = bin.accuracy;
    const confidence = toUnitConfidence(bin.confidence);
    if (bin.count === 0 || accuracy === null) continue;
    const title = `confidence ${bin.lo}–${bin.hi}: ${bin.count} documents, mean confidence ${formatPercent(confidence)}, accuracy ${formatPercent(accuracy)}`;
    chart.rects.push({
      x: px(x(lo) + 1),
      y: y(accuracy),
      width: px(Math.max(x(hi) - x(lo) - 2, 1)),
      height: px(y(0) - y(accuracy)),
      cls: 'bar',
      title,
    });
    if (confidence !== null) chart.circles.push({ cx: x(confidence), cy: y(accuracy), r: 3.5, cls: 'point s1', title });
    chart.texts.push({
      x: px((x(lo) + x(hi)) / 2),
      y: px(y(accuracy) - 4),
      text: String(bin.count),
      anchor: 'middle',
      cls: 'count',
    });
  }
  chart.legend.push(
    { cls: 'bar', label: 'accuracy per confidence bin (n above)' },
    { cls: 'diagonal', label: 'perfect calibration' },
  );
  return chart;
}

export function buildRiskCoverageChart(mode: string, block: ConfidenceBlock): ChartView {
  const x = linearScale([0, 1], [MARGINS.left, WIDTH - MARGINS.right], unitTicks());
  const y = linearScale([0, 1], [HEIGHT - MARGINS.bottom, MARGINS.top], unitTicks());
  const chart = createFrame({
    label: `Risk–coverage curve, ${mode}`,
    width: WIDTH,
    height: HEIGHT,
    margins: MARGINS,
    x,
    y,
    xTitle: 'coverage (share of documents accepted)',
    yTitle: 'field F1 of accepted documents',
  });
  const points = [...block.risk_coverage]
    .filter((p) => Number.isFinite(p.coverage) && Number.isFinite(p.accuracy))
    .sort((a, b) => a.coverage - b.coverage || b.threshold - a.threshold);
  if (points.length > 0)
    chart.paths.push({ d: linePath(points.map((p) => [x(p.coverage), y(p.accuracy)])), cls: 'line s0' });
  chart.paths.push({
    d: linePath([
      [x(0), y(block.auto_accept_target)],
      [x(1), y(block.auto_accept_target)],
    ]),
    cls: 'target',
  });
  chart.texts.push({
    x: x(0) + 4,
    y: px(y(block.auto_accept_target) - 5),
    text: `target ${formatPercent(block.auto_accept_target, 0)}`,
    anchor: 'start',
    cls: 'note',
  });
  const chosen =
    block.auto_accept_threshold === null ? undefined : points.find((p) => p.threshold === block.auto_accept_threshold);
  if (chosen) {
    chart.circles.push({
      cx: x(chosen.coverage),
      cy: y(chosen.accuracy),
      r: 5,
      cls: 'marker',
      title: `confidence ≥ ${chosen.threshold}: ${formatPercent(chosen.coverage, 0)} of documents at ${formatPercent(chosen.accuracy)} field F1`,
    });
  }
  chart.legend.push(
    { cls: 's0', label: 'accepting documents above a confidence threshold' },
    { cls: 'target', label: 'target accuracy' },
  );
  return chart;
}
