/**
 * Shape checks for truth/<id>.regions.json: /split's `pages` array (docs/service-interface.md §2.3), boxes in inches with a
 * top-left origin, page sizes in points. METRICS §3: boxes must have a positive size and lie inside the page.
 */
/** Slack for boxes touching the page edge, in inches (rounding in the writer). */
const EDGE_TOLERANCE_IN = 0.01;

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Every reason `value` is not a valid RegionPage[]; empty when it is. */
export function checkRegionPages(value: unknown): string[] {
  if (!Array.isArray(value)) return ['must be a JSON array of pages (the shape of /split\'s "pages")'];
  const problems: string[] = [];
  const seen = new Set<number>();
  for (const [pageIndex, page] of (value as unknown[]).entries()) {
    const at = `/${pageIndex}`;
    if (typeof page !== 'object' || page === null) {
      problems.push(`${at}: must be an object`);
      continue;
    }
    const { page: number, width, height, bounding_boxes: boxes } = page as Record<string, unknown>;
    if (!Number.isInteger(number) || (number as number) < 1) problems.push(`${at}/page: must be an integer ≥ 1`);
    else if (seen.has(number as number)) problems.push(`${at}/page: page ${String(number)} appears twice`);
    else seen.add(number as number);
    const sizeOk = isFiniteNumber(width) && width > 0 && isFiniteNumber(height) && height > 0;
    if (!sizeOk) problems.push(`${at}: width and height must be positive numbers (points)`);
    if (!Array.isArray(boxes)) {
      problems.push(`${at}/bounding_boxes: must be an array`);
      continue;
    }
    for (const [boxIndex, entry] of (boxes as unknown[]).entries()) {
      const boxAt = `${at}/bounding_boxes/${boxIndex}`;
      if (typeof entry !== 'object' || entry === null) {
        problems.push(`${boxAt}: must be an object`);
        continue;
      }
      const { bounding_box: box, content } = entry as Record<string, unknown>;
      if (typeof content !== 'string') problems.push(`${boxAt}/content: must be a string`);
      if (typeof box !== 'object' || box === null) {
        problems.push(`${boxAt}/bounding_box: must be an object`);
        continue;
      }
      const { min_x, min_y, max_x, max_y } = box as Record<string, unknown>;
      if (![min_x, min_y, max_x, max_y].every(isFiniteNumber)) {
        problems.push(`${boxAt}/bounding_box: min_x, min_y, max_x, max_y must be numbers (inches)`);
        continue;
      }
      const [x0, y0, x1, y1] = [min_x, min_y, max_x, max_y] as number[];
      if (!(x1! > x0! && y1! > y0!)) problems.push(`${boxAt}/bounding_box: must have a positive size (max > min)`);
      if (
        sizeOk &&
        (x0! < -EDGE_TOLERANCE_IN ||
          y0! < -EDGE_TOLERANCE_IN ||
          x1! > (width as number) / 72 + EDGE_TOLERANCE_IN ||
          y1! > (height as number) / 72 + EDGE_TOLERANCE_IN)
      ) {
        problems.push(
          `${boxAt}/bounding_box: lies outside the ${String(width)}×${String(height)} pt page (boxes are in inches)`,
        );
      }
    }
  }
  return problems;
}
