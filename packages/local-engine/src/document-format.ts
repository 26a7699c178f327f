/** What the engine reads, detected from the bytes (never trusted from the file name). */

/** Formats as the interface names them (extensions without dot, docs/service-interface.md §7). */
export const SUPPORTED_FORMATS = ['pdf', 'jpg', 'jpeg', 'png', 'tif', 'tiff'] as const;

export type DocumentFormat = 'pdf' | 'png' | 'jpeg' | 'tiff';

/** Detects the format from magic bytes; null when unsupported. */
export function detectFormat(bytes: Uint8Array): DocumentFormat | null {
  const head = Buffer.from(bytes.subarray(0, 1024));
  if (head.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  const tiffLE = head[0] === 0x49 && head[1] === 0x49 && head[2] === 0x2a && head[3] === 0x00;
  const tiffBE = head[0] === 0x4d && head[1] === 0x4d && head[2] === 0x00 && head[3] === 0x2a;
  if (tiffLE || tiffBE) return 'tiff';
  return null;
}
