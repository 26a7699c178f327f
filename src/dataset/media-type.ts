/**
 * Media-type sniffing by magic bytes. Hand-written because the four signatures the interface accepts are
 * fixed and tiny; a sniffing library would pull in hundreds of signatures we must reject anyway.
 */
import { closeFd, openFile, readFd, statFd } from './fd.js';
import { scanPageCount } from './page-count.js';

// Built once: the validator sniffs every document of the dataset.
const PDF_HEADER = Buffer.from('%PDF-', 'latin1');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const TIFF_LITTLE_ENDIAN = Buffer.from('II*\0', 'latin1');
const TIFF_BIG_ENDIAN = Buffer.from('MM\0*', 'latin1');

const SIGNATURES: { mediaType: string; test: (head: Buffer) => boolean }[] = [
  // PDF 1.7 §7.5.2: the header may be preceded by junk within the first 1024 bytes; readers accept that.
  { mediaType: 'application/pdf', test: (head) => head.subarray(0, 1024).includes(PDF_HEADER) },
  { mediaType: 'image/png', test: (head) => head.subarray(0, 8).equals(PNG_SIGNATURE) },
  { mediaType: 'image/jpeg', test: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff },
  {
    mediaType: 'image/tiff',
    test: (head) => head.subarray(0, 4).equals(TIFF_LITTLE_ENDIAN) || head.subarray(0, 4).equals(TIFF_BIG_ENDIAN),
  },
];

/** The media type of `bytes` (the start of a file), or undefined when it is none of PDF, PNG, JPEG, TIFF. */
export function sniffMediaType(bytes: Buffer): string | undefined {
  return SIGNATURES.find((signature) => signature.test(bytes))?.mediaType;
}

/** What the validator needs of a document file, from one open: kind, size and (for a non-empty file) media type. */
export interface FileFacts {
  isFile: boolean;
  size: number;
  mediaType?: string;
  /**
   * Pages, when the whole file was seen and its bytes settle them (src/dataset/page-count.ts): the count, or
   * null when no reader can count them.
   */
  pages?: number | null;
}

/** The facts of a regular file from its size and first bytes (at least its first KiB, or all of it). */
export function describeRegularFile(size: number, head: Buffer): FileFacts {
  if (size === 0) return { isFile: true, size };
  const mediaType = sniffMediaType(head);
  if (!mediaType) return { isFile: true, size };
  // The hash reads small files whole: their pages are counted from those bytes, not from a second read.
  const pages = head.length === size ? scanPageCount(mediaType, head) : undefined;
  return pages === undefined ? { isFile: true, size, mediaType } : { isFile: true, size, mediaType, pages };
}

/** Opens the file once for its fstat and first KiB (one open instead of a stat, then an open to sniff). */
export async function inspectFile(file: string): Promise<FileFacts> {
  const fd = await openFile(file);
  try {
    const info = await statFd(fd);
    if (!info.isFile() || info.size === 0) return { isFile: info.isFile(), size: info.size };
    const head = Buffer.alloc(1024);
    const bytesRead = await readFd(fd, head, 0, head.length, 0);
    return describeRegularFile(info.size, head.subarray(0, bytesRead));
  } finally {
    await closeFd(fd);
  }
}
