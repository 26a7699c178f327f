/** The engine behind every endpoint: the OCR pool, the cached analyser, and multi-file page merging. */
import type { Logger } from './contract.js';
import { createDocumentAnalyser, type AnalysedDocument } from './analyse-document.js';
import type { PageLayout } from './layout/types.js';
import type { OcrChoice } from './contract.js';
import { createPageOcr } from './page-ocr.js';
import type { InputDocument } from './read-request.js';

export interface Engine {
  /** The OCR that reads scanned pages, e.g. `pp-ocrv4+onnxruntime-node@1.17.0` or `tesseract.js@7.0.0`. */
  ocrVersion: string;
  analyse(document: InputDocument): Promise<AnalysedDocument>;
  /** Analyses several documents (indexed file parts) and numbers their pages as one sequence. */
  analyseAll(
    documents: InputDocument[],
  ): Promise<{ docs: AnalysedDocument[]; pages: PageLayout[]; ocrConfidence: (number | null)[] }>;
  close(): Promise<void>;
}

export async function createEngine(options: {
  ocr: OcrChoice;
  ocrWorkers: number;
  cacheSize: number;
  logger: Logger;
}): Promise<Engine> {
  const ocr = await createPageOcr(options.ocr, { workers: options.ocrWorkers, logger: options.logger });
  const analyser = createDocumentAnalyser(ocr, options.cacheSize);
  return {
    ocrVersion: ocr.version,
    analyse: (document) => analyser.analyse(document.bytes, document.format),
    async analyseAll(documents) {
      const docs = await Promise.all(documents.map((d) => analyser.analyse(d.bytes, d.format)));
      const pages: PageLayout[] = [];
      const ocrConfidence: (number | null)[] = [];
      for (const doc of docs) {
        doc.pages.forEach((page, i) => {
          pages.push(docs.length === 1 ? page : { ...page, page: pages.length + 1 });
          ocrConfidence.push(doc.ocrConfidence[i] ?? null);
        });
      }
      return { docs, pages, ocrConfidence };
    },
    close: () => ocr.close(),
  };
}
