import { describe, expect, it } from 'vitest';
import type { Fragment } from '../src/layout/types.js';
import { smallTextFactor } from '../src/small-text.js';
import { upscalePage } from '../src/upscale-page.js';

/** `count` words `heightPx` pixels high on a page of `dpi`, in points as the OCR gives them. */
function words(count: number, heightPx: number, dpi: number): Fragment[] {
  const height = (heightPx * 72) / dpi;
  return Array.from({ length: count }, (_, i) => ({
    text: `word${i}`,
    box: { x0: 10, y0: i * 2 * height, x1: 60, y1: i * 2 * height + height },
    fontSize: height,
    confidence: 90,
  }));
}

describe('pages whose text is small in pixels', () => {
  it('reads a page again upscaled when its words are under 15 px high, by as much as brings them to ~36 px', () => {
    expect(smallTextFactor({ dpi: 75 }, words(40, 12, 75))).toBeCloseTo(3);
    expect(smallTextFactor({ dpi: 200 }, words(40, 14.4, 200))).toBeCloseTo(2.5);
    // The same words at another stated resolution: the pixels decide, not the resolution a file states.
    expect(smallTextFactor({ dpi: 72 }, words(40, 14.4, 72))).toBeCloseTo(2.5);
    // At most three times: more invents nothing and costs time as its square.
    expect(smallTextFactor({ dpi: 72 }, words(40, 6, 72))).toBe(3);
  });

  it('leaves pages of ordinary text, and pages with too few words to tell, as they are', () => {
    expect(smallTextFactor({ dpi: 150 }, words(40, 22, 150))).toBe(1);
    expect(smallTextFactor({ dpi: 72 }, words(7, 8, 72))).toBe(1);
  });

  it('upscales the pixels and the stated resolution alike', async () => {
    const pixels = new Uint8Array(20 * 10).fill(255);
    pixels[5 * 20 + 5] = 0;
    const page = { width: 20, height: 10, dpi: 75, dpiKnown: true, pixels };
    const up = await upscalePage(page, 2);
    expect([up.width, up.height, up.dpi, up.dpiKnown, up.pixels.length]).toEqual([40, 20, 150, true, 800]);
    expect(Math.min(...up.pixels)).toBeLessThan(128);
  });
});
