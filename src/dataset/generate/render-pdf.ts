/**
 * PDF output with pdfkit: digital documents (a text layer in the built-in Helvetica, which pdfkit embeds from
 * its own AFM data: nothing is fetched) and scanned PDFs (one degraded image per page, no text layer).
 * The creation date and the producer are fixed, so the same layout gives the same bytes (pdfkit derives the
 * file ID from the info dictionary).
 */
import PDFDocument from 'pdfkit';
import type { Layout } from './layout.js';

/** A fixed date for the info dictionary: byte-identical output for the same seed. */
const FIXED_DATE = new Date(Date.UTC(2025, 11, 1));

function createDocument(title: string): PDFKit.PDFDocument {
  return new PDFDocument({
    autoFirstPage: false,
    compress: true,
    info: {
      Title: title,
      Producer: 'docbench sample generator',
      Creator: 'docbench',
      CreationDate: FIXED_DATE,
      ModDate: FIXED_DATE,
    },
  });
}

async function collect(document: PDFKit.PDFDocument, draw: () => void): Promise<Buffer> {
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    document.on('end', resolve);
    document.on('error', reject);
  });
  draw();
  document.end();
  await done;
  return Buffer.concat(chunks);
}

/** A digital PDF: vector rules and real text. */
export async function renderLayoutPdf(layout: Layout, title: string): Promise<Buffer> {
  const document = createDocument(title);
  return collect(document, () => {
    for (const page of layout.pages) {
      document.addPage({ size: [page.width, page.height], margin: 0 });
      for (const fill of page.fills) {
        const grey = fill.grey.toString(16).padStart(2, '0');
        document.rect(fill.x, fill.y, fill.w, fill.h).fill(`#${grey}${grey}${grey}`);
      }
      for (const rule of page.rules) {
        document
          .moveTo(rule.x1, rule.y1)
          .lineTo(rule.x2, rule.y2)
          .lineWidth(rule.width)
          .strokeColor('#000000')
          .stroke();
      }
      document.fillColor('#000000');
      for (const block of page.blocks) {
        for (const run of block.runs) {
          document
            .font(run.bold ? 'Helvetica-Bold' : 'Helvetica')
            .fontSize(run.size)
            .text(run.text, run.x, run.baseline, { lineBreak: false, baseline: 'alphabetic' });
        }
      }
    }
  });
}

/** A scanned PDF: each page is one image (JPEG or PNG bytes) covering the page, with no text layer. */
export async function renderImagePdf(
  images: Buffer[],
  size: { width: number; height: number },
  title: string,
): Promise<Buffer> {
  const document = createDocument(title);
  return collect(document, () => {
    for (const image of images) {
      document.addPage({ size: [size.width, size.height], margin: 0 });
      document.image(image, 0, 0, { width: size.width, height: size.height });
    }
  });
}
