/** Shared PDF and raster helpers (pdfjs-dist and sharp). */
export { openPdf } from './pdf-document.js';
export type {
  PdfHandle,
  PdfPageContent,
  PdfTextRun,
  PdfImagePlacement,
  PointBox,
  RenderedPage,
} from './pdf-document.js';
export { DEFAULT_IMAGE_DPI, countImagePages, decodeImagePage, rgbaToGrey, encodeGreyPng } from './raster.js';
export type { GreyPage } from './raster.js';
