/**
 * The local engine on real documents it was never tuned on (packages/local-engine/CHANGELOG.md, "Unseen real documents"): the
 * documents recorded beside vendors' answers in `../shared/recordings` (or the folder DOCBENCH_RECORDINGS names;
 * skipped with a note when absent; never committed). Read through PP-OCR, every call a cache miss.
 * 1. Field F1 on the forms and invoices: the schema made generically from Textract's key-value pairs, the truth
 *    the vendor's values, with the few corrections below checked by eye on the page (bench/support/vendor-fields.ts).
 * 2. Text fidelity on every document: the engine's markdown against the vendor's lines in reading order, scored by
 *    docbench's markdown similarity.
 * The goal for field F1 on real forms, invoices and receipts is 0.85.
 */
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildExtractResult, buildMarkdownPages, createEngine, silentLogger } from '@docbench/local-engine/in-process';
import {
  aggregateExtraction,
  type ExtractionScore,
  scoreExtraction,
  scoreMarkdownPages,
} from '../../src/score/index.js';
import type { Json, JsonSchema } from '../../src/types.js';
import type { BenchCase, BenchFigure } from '../harness.js';
import { fieldsFromPairs, type PairCorrection } from '../support/vendor-fields.js';
import { azureLines, textractLines, textractPairs } from '../support/vendor-recordings.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RECORDINGS = path.resolve(root, process.env.DOCBENCH_RECORDINGS ?? path.join('..', 'shared', 'recordings'));
const LABELS = path.join(root, 'bench', 'labels');
const FIELD_F1_GOAL = 0.85;
const FORMS = 'analyze-layout-tables-forms-signatures.json';

interface Recorded {
  file: string;
  vendor: 'textract' | 'azure-di';
  answer: string;
  /** A form or invoice whose key-value pairs make a field schema; the others are scored on text only. */
  fields?: { corrections: PairCorrection[] };
  /**
   * A document labelled by hand (bench/labels/README.md): a schema in a user's own words and the truth read off the
   * page, written before the engine was run on it.
   */
  labelled?: LabelFiles;
  /**
   * Labelled by hand like `labelled`, on a held-out document, in other users' words than the held-out schema's (one
   * task per user): their misses are printed, so rules are written from them and the held-out figure says whether
   * those rules carry over.
   */
  reworded?: LabelFiles[];
  /** Labelled by hand like `labelled`, and held out: its misses are never printed, so no rule is written from them. */
  heldOut?: LabelFiles;
}

interface LabelFiles {
  schema: string;
  truth: string;
}

/** Which truth a field figure is scored against; each kind has its own total. */
type TaskKind = 'vendor' | 'labelled' | 'reworded' | 'held-out';
const TASK_TITLES: Record<TaskKind, string> = {
  vendor: 'forms and invoices against vendor key-values',
  labelled: 'documents labelled by hand',
  reworded: "tasks in other users' words on the held-out documents",
  'held-out': 'documents labelled by hand and held out (misses not printed)',
};

/**
 * Every recorded document. Field F1 only on the form, the paystub and the invoice: the bank statement's, the
 * paper's and the reading-order test's "pairs" are table cells and sentences, and the Azure answers are of
 * prebuilt-layout, which returns no key-value pairs.
 */
const DOCUMENTS: Recorded[] = [
  {
    file: 'textract/form.png',
    vendor: 'textract',
    answer: `form.png.${FORMS}`,
    heldOut: { schema: 'assistance-application.schema.json', truth: 'form.truth.json' },
    reworded: [
      { schema: 'housing-intake.schema.json', truth: 'form.housing-intake.truth.json' },
      { schema: 'benefits-eligibility.schema.json', truth: 'form.benefits-eligibility.truth.json' },
    ],
    fields: {
      corrections: [
        { key: 'City', vendorValue: 'Town', value: 'Sample Town', why: 'the page reads "Sample Town"' },
        // The brackets are the form's printed blank for the area code, not part of the number written in.
        { key: 'Home Phone', vendorValue: '( ) 414-2285', value: '414-2285', why: 'printed blank area code' },
        {
          key: 'Day/Message/Cell Phone',
          vendorValue: '( ) 122-3453',
          value: '122-3453',
          why: 'printed blank area code',
        },
        { key: 'Telephone No.:', vendorValue: '( ) 314-8888', value: '314-8888', why: 'printed blank area code' },
        {
          key: 'Rent $ 2000',
          vendorValue: true,
          value: null,
          why: 'the amount written in (2000) was read into the key',
        },
      ],
    },
  },
  {
    file: 'textract/paystub_tables.png',
    vendor: 'textract',
    answer: `paystub_tables.png.${FORMS}`,
    heldOut: { schema: 'payslip.schema.json', truth: 'paystub_tables.truth.json' },
    reworded: [
      { schema: 'income-verification.schema.json', truth: 'paystub_tables.income-verification.truth.json' },
      { schema: 'payroll-export.schema.json', truth: 'paystub_tables.payroll-export.truth.json' },
    ],
    fields: {
      corrections: [
        { key: 'NUMBER', vendorValue: '00000000 1', value: '00000000', why: 'the 1 is the next, unheaded column' },
        { key: 'Gross Pay', vendorValue: '$ 452.43 23,526.80', value: '$ 452.43', why: '23,526.80 is year to date' },
        // Column headers and a table title of the benefits table, paired with a cell: not keys of the page.
        { key: 'this period', vendorValue: '0.51', value: null, why: 'a column header' },
        { key: 'total to date', vendorValue: '27.00', value: null, why: 'a column header' },
        { key: 'Information', vendorValue: 'Group Term Life', value: null, why: 'the end of a table title' },
      ],
    },
  },
  {
    file: 'textract/sample-invoice.pdf',
    vendor: 'textract',
    answer: `sample-invoice.pdf.${FORMS}`,
    heldOut: { schema: 'payables-invoice.schema.json', truth: 'sample-invoice.truth.json' },
    reworded: [{ schema: 'ap-automation.schema.json', truth: 'sample-invoice.ap-automation.truth.json' }],
    fields: {
      corrections: [
        {
          key: 'Thanks for choosing DEMO -',
          vendorValue: 'Sliced Invoices | admin@slicedinvoices.com',
          value: null,
          why: 'a sentence of the footer cut in two, not a key',
        },
      ],
    },
  },
  {
    file: 'textract/in-table-title.png',
    vendor: 'textract',
    answer: `in-table-title.png.${FORMS}`,
    labelled: { schema: 'balance-sheet.schema.json', truth: 'in-table-title.truth.json' },
  },
  { file: 'textract/matrix.png', vendor: 'textract', answer: `matrix.png.${FORMS}` },
  { file: 'textract/reading_order.pdf', vendor: 'textract', answer: `reading_order.pdf.${FORMS}` },
  {
    file: 'textract/textractor-singlepage-doc.pdf',
    vendor: 'textract',
    answer: 'textractor-singlepage-doc.pdf.detect-document-text.json',
  },
  {
    file: 'azure-di/ContosoSafety360-Sample-2.pdf',
    vendor: 'azure-di',
    answer: 'ContosoSafety360-Sample-2.pdf.layout.json',
    labelled: { schema: 'safety-report.schema.json', truth: 'ContosoSafety360-Sample-2.truth.json' },
  },
  {
    file: 'azure-di/ContosoSafety360-Sample-3.pdf',
    vendor: 'azure-di',
    answer: 'ContosoSafety360-Sample-3.pdf.layout.json',
    labelled: { schema: 'safety-report.schema.json', truth: 'ContosoSafety360-Sample-3.truth.json' },
  },
];

function describeMiss(field: ExtractionScore['fields'][number]): string {
  const show = (value: Json | undefined) => (value === undefined ? '—' : JSON.stringify(value));
  return `${field.path}: truth ${show(field.truth)}, got ${show(field.prediction)} (${field.error})`;
}

interface FieldTask {
  kind: TaskKind;
  schema: JsonSchema;
  truth: Record<string, Json>;
  /** What the figure's name adds after the document's: the kind, and for a reworded task its schema. */
  label: string;
  /** What the figure's note adds (fields left out). */
  note: string;
}

async function readLabelled(kind: TaskKind, files: LabelFiles, label: string): Promise<FieldTask> {
  const read = async (file: string) => JSON.parse(await readFile(path.join(LABELS, file), 'utf8'));
  return { kind, schema: await read(files.schema), truth: await read(files.truth), label, note: '' };
}

async function fieldTasks(doc: Recorded, answer: unknown): Promise<FieldTask[]> {
  const tasks: FieldTask[] = [];
  if (doc.fields) {
    const { schema, truth, ambiguous, unused } = fieldsFromPairs(textractPairs(answer), doc.fields.corrections);
    if (unused.length > 0)
      throw new Error(`${doc.file}: corrections that match no recorded pair: ${unused.map((c) => c.key).join(', ')}`);
    const note = ambiguous.length ? `; left out as ambiguous: ${ambiguous.join(', ')}` : '';
    tasks.push({ kind: 'vendor', schema, truth, label: '', note });
  }
  if (doc.labelled) tasks.push(await readLabelled('labelled', doc.labelled, ' (labelled)'));
  for (const files of doc.reworded ?? [])
    tasks.push(await readLabelled('reworded', files, ` (${files.schema.replace(/\.schema\.json$/, '')})`));
  if (doc.heldOut) tasks.push(await readLabelled('held-out', doc.heldOut, ' (held out)'));
  return tasks;
}

function overallFigure(scores: ExtractionScore[], what: string): BenchFigure {
  const overall = aggregateExtraction(scores).micro;
  return {
    name: `field F1, all ${scores.length} ${what} (micro)`,
    value: overall.f1,
    unit: 'ratio',
    target: { op: '>=', value: FIELD_F1_GOAL },
    note: `P ${overall.precision.toFixed(2)} R ${overall.recall.toFixed(2)}`,
  };
}

async function measure(): Promise<BenchFigure[]> {
  const present = await access(path.join(RECORDINGS, 'README.md')).then(
    () => true,
    () => false,
  );
  if (!present) {
    process.stdout.write(
      `  skipped: no recordings at ${path.relative(root, RECORDINGS)} (they are not part of the repository)\n`,
    );
    return [];
  }
  const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 1, logger: silentLogger });
  const figures: BenchFigure[] = [];
  const scores: Record<TaskKind, ExtractionScore[]> = { vendor: [], labelled: [], reworded: [], 'held-out': [] };
  const similarities: number[] = [];
  try {
    for (const doc of DOCUMENTS) {
      const bytes = await readFile(path.join(RECORDINGS, doc.file));
      const answer = JSON.parse(await readFile(path.join(RECORDINGS, path.dirname(doc.file), doc.answer), 'utf8'));
      const analysed = await engine.analyse({
        bytes,
        format: doc.file.endsWith('.pdf') ? 'pdf' : 'png',
        filename: path.basename(doc.file),
      });
      const name = path.basename(doc.file);
      for (const task of await fieldTasks(doc, answer)) {
        const result = buildExtractResult(analysed.pages, task.schema, false, 'US');
        const score = scoreExtraction(task.truth, JSON.parse(result.response as string) as Json, {
          schema: task.schema,
        });
        scores[task.kind].push(score);
        figures.push({
          name: `${name}: field F1${task.label}`,
          value: score.f1,
          unit: 'ratio',
          target: { op: '>=', value: FIELD_F1_GOAL },
          note: `${Object.keys(task.truth).length} fields, P ${score.precision.toFixed(2)} R ${score.recall.toFixed(2)}${task.note}`,
        });
        if (task.kind === 'held-out') continue;
        for (const miss of score.fields.filter((f) => f.verdict !== 'tp' && f.verdict !== 'tn'))
          process.stdout.write(`    ${name}${task.label} miss: ${describeMiss(miss)}\n`);
      }
      const lines = doc.vendor === 'textract' ? textractLines(answer) : azureLines(answer);
      const markdown = buildMarkdownPages(analysed.pages).map((page) => page.content);
      const similarity = scoreMarkdownPages(markdown, lines).similarity;
      similarities.push(similarity);
      figures.push({ name: `${name}: text similarity to ${doc.vendor} lines`, value: similarity, unit: 'ratio' });
    }
  } finally {
    await engine.close();
  }
  figures.push(
    ...(Object.keys(TASK_TITLES) as TaskKind[]).map((kind) => overallFigure(scores[kind], TASK_TITLES[kind])),
    {
      name: `text similarity, mean of ${similarities.length} documents`,
      value: similarities.reduce((sum, s) => sum + s, 0) / similarities.length,
      unit: 'ratio',
    },
  );
  return figures;
}

export const cases: BenchCase[] = [
  {
    id: 'local-unseen',
    title:
      'Local engine on unseen real documents (../shared/recordings): field F1 against vendor key-values, text fidelity',
    run: measure,
  },
];
