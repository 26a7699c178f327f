/**
 * A tiny labelled dataset for runner tests. Each document is a minimal PDF whose comment lines carry what a
 * service "reads" from it (see fake-service.ts): the extraction and the markdown. Truth and baseline files
 * are written beside it; `perturb` makes the document's own content differ from its truth.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface TinyDocument {
  id: string;
  data: Record<string, unknown>;
  markdown: string;
  tags?: Record<string, string>;
  /** The truth, when it should differ from what the document says. */
  truth?: Record<string, unknown>;
  baselineMarkdown?: string;
}

export const TINY_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Patient name' },
    total: { type: 'number', description: 'Total charges' },
    codes: {
      type: 'array',
      items: { type: 'object', properties: { cpt: { type: 'string' }, units: { type: 'integer' } }, required: ['cpt'] },
    },
  },
  required: ['name'],
};

export function tinyDocuments(count: number): TinyDocument[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `doc-${String(i + 1).padStart(3, '0')}`;
    const data = { name: `Patient ${i + 1}`, total: 100 + i, codes: [{ cpt: '99213', units: 1 + (i % 3) }] };
    const markdown = `# Claim ${i + 1}\n\nPatient: Patient ${i + 1}\n\nTotal: ${100 + i}`;
    return {
      id,
      data,
      markdown,
      tags: { tier: i % 2 === 0 ? 'digital' : 'fax' },
      // Every third document is read wrong by the "service": its truth differs.
      ...(i % 3 === 2 ? { truth: { ...data, total: 999 } } : {}),
      baselineMarkdown: markdown.replace(/o/g, '0'),
    };
  });
}

/** The PDF body of a document: a valid header and the content the fake service reads. */
export function tinyPdf(doc: TinyDocument): Buffer {
  const payload = Buffer.from(JSON.stringify({ data: doc.data, markdown: doc.markdown })).toString('base64');
  return Buffer.from(`%PDF-1.4\n% docbench-test ${payload}\n%%EOF\n`);
}

export async function writeTinyDataset(dir: string, documents: TinyDocument[]): Promise<string> {
  await mkdir(path.join(dir, 'documents'), { recursive: true });
  await mkdir(path.join(dir, 'truth'), { recursive: true });
  await mkdir(path.join(dir, 'baseline'), { recursive: true });
  await writeFile(path.join(dir, 'schema.json'), JSON.stringify(TINY_SCHEMA, null, 2));
  await writeFile(
    path.join(dir, 'dataset.json'),
    JSON.stringify(
      {
        name: 'tiny',
        version: '1',
        documents: documents.map((d) => ({ id: d.id, file: `documents/${d.id}.pdf`, tags: d.tags ?? {} })),
      },
      null,
      2,
    ),
  );
  for (const doc of documents) {
    await writeFile(path.join(dir, 'documents', `${doc.id}.pdf`), tinyPdf(doc));
    await writeFile(path.join(dir, 'truth', `${doc.id}.json`), JSON.stringify(doc.truth ?? doc.data));
    await writeFile(path.join(dir, 'truth', `${doc.id}.md`), doc.markdown);
    if (doc.baselineMarkdown !== undefined)
      await writeFile(path.join(dir, 'baseline', `${doc.id}.md`), doc.baselineMarkdown);
  }
  return dir;
}
