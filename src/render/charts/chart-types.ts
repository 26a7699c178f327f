/**
 * A chart as plain geometry: numbers for positions and paths (built here from numbers only, so nothing from
 * the data can reach an attribute unescaped), and text that the template escapes like any other text.
 */
export interface ChartView {
  /** aria-label and <title> of the SVG. */
  label: string;
  width: number;
  height: number;
  /** `d` holds only path commands and numbers. */
  paths: { d: string; cls: string }[];
  rects: { x: number; y: number; width: number; height: number; cls: string; title: string }[];
  circles: { cx: number; cy: number; r: number; cls: string; title: string }[];
  texts: { x: number; y: number; text: string; anchor: 'start' | 'middle' | 'end'; cls: string }[];
  legend: { cls: string; label: string }[];
}

/** Series colours, as CSS classes the report's stylesheet defines. */
export const SERIES_CLASSES = ['s0', 's1', 's2', 's3', 's4', 's5'] as const;
