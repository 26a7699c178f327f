/**
 * Raster output of a layout page with @napi-rs/canvas, the first step of every scanned tier. The font is
 * Liberation Sans (metric-compatible with Helvetica) from pdfjs-dist's standard_fonts, registered by path so
 * the rendering does not depend on the fonts installed on the machine.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { LayoutPage } from './layout.js';

const FONT_FAMILY = 'DocbenchSans';
let fontsRegistered = false;

function registerFonts(): void {
  if (fontsRegistered) return;
  const require = createRequire(import.meta.url);
  const fontDir = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
  for (const file of ['LiberationSans-Regular.ttf', 'LiberationSans-Bold.ttf']) {
    if (!GlobalFonts.registerFromPath(path.join(fontDir, file), FONT_FAMILY))
      throw new Error(`cannot register font ${file} from ${fontDir}`);
  }
  fontsRegistered = true;
}

/** A greyscale raster of the page: one byte per pixel (0 black … 255 white), `dpi` pixels per inch. */
export interface GreyImage {
  width: number;
  height: number;
  dpi: number;
  pixels: Uint8Array;
}

export function renderPageRaster(page: LayoutPage, dpi: number): GreyImage {
  registerFonts();
  const scale = dpi / 72;
  const width = Math.round(page.width * scale);
  const height = Math.round(page.height * scale);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.scale(scale, scale);
  for (const fill of page.fills) {
    context.fillStyle = `rgb(${fill.grey},${fill.grey},${fill.grey})`;
    context.fillRect(fill.x, fill.y, fill.w, fill.h);
  }
  context.strokeStyle = '#000000';
  for (const rule of page.rules) {
    context.lineWidth = rule.width;
    context.beginPath();
    context.moveTo(rule.x1, rule.y1);
    context.lineTo(rule.x2, rule.y2);
    context.stroke();
  }
  context.fillStyle = '#000000';
  context.textBaseline = 'alphabetic';
  for (const block of page.blocks) {
    for (const run of block.runs) {
      context.font = `${run.bold ? 'bold ' : ''}${run.size}px ${FONT_FAMILY}`;
      context.fillText(run.text, run.x, run.baseline);
    }
  }
  const rgba = context.getImageData(0, 0, width, height).data;
  const pixels = new Uint8Array(width * height);
  // Everything is drawn in greys, so the red channel is the grey level.
  for (let i = 0; i < pixels.length; i++) pixels[i] = rgba[i * 4]!;
  return { width, height, dpi, pixels };
}
