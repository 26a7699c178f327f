/** The engine behind every endpoint: the OCR pool, the cached analyser, and multi-file page merging. */
import type { Logger } from '../logger.js';
import { createDocumentAnalyser, type AnalysedDocument } from './analyse-document.js';
import type { PageLayout } from './layout/types.js';
import { createOcrPool, type OcrPool } from './ocr-pool.js';
import type { InputDocument } from './read-request.js';

export interface Engine {
  analyse(document: InputDocument): Promise<AnalysedDocument>;
  /** Analyses several documents (indexed file parts) and numbers their pages as one sequence. */
  analyseAll(documents: InputDocument[]): Promise<{ docs: AnalysedDocument[]; pages: PageLayout[]; ocrConfidence: (number | null)[] }>;
  close(): Promise<void>;
}

export function createEngine(options: { ocrWorkers: number; cacheSize: number; logger: Logger }): Engine {
  const ocr: OcrPool = createOcrPool(options.ocrWorkers, options.logger);
  const analyser = createDocumentAnalyser(ocr, options.cacheSize);
  return {
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
