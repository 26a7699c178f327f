/**
 * Connected components of a page raster's selected pixels (dark ink for the check boxes, text probability for
 * PP-OCR's detector), as bounding boxes. Written here rather than taken from a library: the image library the
 * engine ships (sharp) has no component labelling, and the flood fill is a few lines over a typed stack.
 */

/** A component's bounding box in pixels, both corners inclusive. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The bounding box of every connected component of the pixels `isOn` selects (row-major indices into a
 * `width` × `height` raster), in the order of each component's first pixel in row-major order. `connectivity`
 * 4 joins pixels that share a side, 8 also those that share a corner.
 */
export function componentBoxes(
  width: number,
  height: number,
  isOn: (index: number) => boolean,
  connectivity: 4 | 8,
): PixelBox[] {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: PixelBox[] = [];
  for (let start = 0; start < width * height; start++) {
    if (seen[start] || !isOn(start)) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    const box = { x0: width, y0: height, x1: 0, y1: 0 };
    while (top > 0) {
      const at = stack[--top]!;
      const x = at % width;
      const y = (at - x) / width;
      if (x < box.x0) box.x0 = x;
      if (x > box.x1) box.x1 = x;
      if (y < box.y0) box.y0 = y;
      if (y > box.y1) box.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width || (connectivity === 4 && dx !== 0 && dy !== 0)) continue;
          const next = ny * width + nx;
          if (!seen[next] && isOn(next)) {
            seen[next] = 1;
            stack[top++] = next;
          }
        }
      }
    }
    boxes.push(box);
  }
  return boxes;
}
