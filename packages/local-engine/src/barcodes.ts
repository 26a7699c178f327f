/**
 * Barcode and QR code reading with zxing-wasm on page rasters. The wasm binary is read from the installed
 * package (zxing-wasm otherwise fetches it from a CDN).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { encodeGreyPng, type GreyPage } from '@docbench/pdf';
import type { PointBox } from './layout/types.js';

const require = createRequire(import.meta.url);
let prepared: Promise<unknown> | null = null;

function prepare(): Promise<unknown> {
  prepared ??= readFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm')).then((wasm) =>
    prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    }),
  );
  return prepared;
}

/** One decoded symbol, positioned in points on its page. */
export interface FoundBarcode {
  value: string;
  /** zxing's format name, e.g. QRCode, Code128, EAN13. */
  type: string;
  box: PointBox;
}

/** Decodes every barcode and QR code on one page raster. */
export async function readPageBarcodes(raster: GreyPage): Promise<FoundBarcode[]> {
  await prepare();
  const png = await encodeGreyPng(raster);
  const results = await readBarcodes(new Uint8Array(png), { tryHarder: true, maxNumberOfSymbols: 32, formats: [] });
  const toPoints = 72 / raster.dpi;
  return results
    .filter((r) => r.isValid)
    .map((r) => {
      const corners = [r.position.topLeft, r.position.topRight, r.position.bottomLeft, r.position.bottomRight];
      const xs = corners.map((c) => c.x * toPoints);
      const ys = corners.map((c) => c.y * toPoints);
      return {
        value: r.text,
        type: r.format,
        box: { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) },
      };
    });
}
