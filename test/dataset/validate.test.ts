import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { createMemoryLogger } from '../../src/logger.js';
import { loadDataset, validateDataset, type DatasetProblem } from '../../src/dataset/index.js';
import { MINIMAL_PDF, MINIMAL_PNG, validFiles, writeDataset } from './fixture.js';

const created: string[] = [];
async function dataset(files: Record<string, string | Buffer | object>): Promise<string> {
  const root = await writeDataset(files);
  created.push(root);
  return root;
}
afterEach(async () => {
  for (const root of created.splice(0)) await rm(root, { recursive: true, force: true });
});

function errorsOf(problems: DatasetProblem[]): DatasetProblem[] {
  return problems.filter((problem) => problem.severity === 'error');
}

describe('validateDataset on a valid dataset', () => {
  it('reports no problem, finds every file and returns a sha256 content hash', async () => {
    const root = await dataset(validFiles());
    const validation = await validateDataset(root);
    expect(validation.problems).toEqual([]);
    expect(validation.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const document = validation.dataset!.documents[0]!;
    expect(document).toMatchObject({ id: 'claim-1', mediaType: 'application/pdf', bytes: MINIMAL_PDF.length });
    expect(Object.keys(document.truth).sort()).toEqual(['json', 'markdown', 'regions']);
    expect(Object.keys(document.baseline).sort()).toEqual(['json', 'markdown']);
    expect(validation.dataset!.locale).toBe('US');
  });

  it('settles from the bytes it hashes the pages of a PDF without a document root: none can be counted', async () => {
    const root = await dataset({ ...validFiles(), 'documents/claim-2.pdf': Buffer.from('%PDF-1.4\n%%EOF\n') });
    const { dataset: loaded } = await validateDataset(root);
    const pages = new Map(loaded!.documents.map((document) => [document.id, document.pages]));
    // claim-1 has a root but no page tree: pdf.js counts it later.
    expect(pages).toEqual(
      new Map([
        ['claim-1', undefined],
        ['claim-2', null],
      ]),
    );
  });

  it('changes the content hash when a byte changes, but not when README.md changes', async () => {
    const root = await dataset(validFiles());
    const before = (await validateDataset(root)).contentHash;
    await writeFile(path.join(root, 'README.md'), 'notes');
    expect((await validateDataset(root)).contentHash).toBe(before);
    await writeFile(path.join(root, 'truth/claim-1.md'), '# Claim!\n');
    expect((await validateDataset(root)).contentHash).not.toBe(before);
  });

  it('reads dataset.json: documents with tags, comparators as names or specs, locale', async () => {
    const root = await dataset({
      ...validFiles(),
      'dataset.json': {
        name: 'mine',
        locale: 'EU',
        comparators: { 'codes[].cpt': 'code', 'codes[].charges': { type: 'money', tolerance: 0.01 } },
        documents: [{ id: 'claim-1', file: 'documents/claim-1.pdf', tags: { tier: 'scan' } }],
      },
    });
    const { dataset: loaded, problems } = await validateDataset(root);
    expect(errorsOf(problems)).toEqual([]);
    expect(loaded!.name).toBe('mine');
    expect(loaded!.locale).toBe('EU');
    expect(loaded!.comparators).toEqual({
      'codes[].cpt': { type: 'code' },
      'codes[].charges': { type: 'money', tolerance: 0.01 },
    });
    expect(loaded!.documents[0]!.tags).toEqual({ tier: 'scan' });
  });

  it('warns (without failing) about truth and baseline files that belong to no document', async () => {
    const root = await dataset({ ...validFiles(), 'truth/ghost.md': 'x', 'baseline/ghost.json': {} });
    const { problems, dataset: loaded } = await validateDataset(root);
    expect(loaded).toBeDefined();
    expect(problems.map((problem) => [problem.severity, problem.file])).toEqual([
      ['warning', 'baseline/ghost.json'],
      ['warning', 'truth/ghost.md'],
    ]);
  });
});

describe('validateDataset reports each error class with its file', () => {
  const base = validFiles();
  const cases: {
    name: string;
    files: Record<string, string | Buffer | object>;
    file: string;
    message: RegExp;
    options?: { maxFileBytes: number };
  }[] = [
    {
      name: 'empty dataset',
      files: { 'schema.json': base['schema.json']!, 'documents/.gitkeep': '' },
      file: 'documents',
      message: /no documents/,
    },
    {
      name: 'missing documents folder',
      files: { 'schema.json': base['schema.json']! },
      file: 'documents/',
      message: /missing/,
    },
    {
      name: 'missing schema.json',
      files: { ...base, 'schema.json': undefined as never },
      file: 'schema.json',
      message: /missing/,
    },
    {
      name: 'schema.json not JSON',
      files: { ...base, 'schema.json': '{ "type": "object",' },
      file: 'schema.json',
      message: /not valid JSON/,
    },
    {
      name: 'schema keyword outside the interface',
      files: { ...base, 'schema.json': { type: 'object', properties: { a: { oneOf: [{ type: 'string' }] } } } },
      file: 'schema.json',
      message: /#\/properties\/a: uses unsupported keyword "oneOf"/,
    },
    {
      name: 'schema type outside the interface',
      files: { ...base, 'schema.json': { type: 'object', properties: { a: { type: 'null' } } } },
      file: 'schema.json',
      message: /type "null" is not supported/,
    },
    {
      name: 'schema not valid JSON Schema',
      files: { ...base, 'schema.json': { type: 'object', required: 'patient' } },
      file: 'schema.json',
      message: /not a valid JSON Schema/,
    },
    {
      // With no truth file the schema is not compiled, but still checked against its meta-schema.
      name: 'schema not valid JSON Schema, no truth files',
      files: {
        'schema.json': { type: 'object', required: 'patient' },
        'documents/claim-1.pdf': base['documents/claim-1.pdf']!,
      },
      file: 'schema.json',
      message: /not a valid JSON Schema: \/required: must be array/,
    },
    {
      name: 'truth not matching the schema',
      files: { ...base, 'truth/claim-1.json': { patient: { dob: '31/01/1970' } } },
      file: 'truth/claim-1.json',
      message: /does not match schema\.json: \/patient: must have required property 'name'/,
    },
    {
      name: 'truth date not ISO',
      files: { ...base, 'truth/claim-1.json': { patient: { name: 'x', dob: '01/31/1970' } } },
      file: 'truth/claim-1.json',
      message: /\/patient\/dob: must match format "date"/,
    },
    {
      name: 'unsupported extension',
      files: { ...base, 'documents/claim-2.docx': 'PK' },
      file: 'documents/claim-2.docx',
      message: /unsupported format "\.docx"/,
    },
    {
      name: 'lying extension',
      files: { ...base, 'documents/claim-2.pdf': MINIMAL_PNG },
      file: 'documents/claim-2.pdf',
      message: /content is PNG but the extension "\.pdf" says PDF/,
    },
    {
      name: 'content of no supported format',
      files: { ...base, 'documents/claim-2.png': 'hello' },
      file: 'documents/claim-2.png',
      message: /content is not a PDF, PNG, JPEG or TIFF/,
    },
    {
      name: 'zero-byte document',
      files: { ...base, 'documents/claim-2.pdf': '' },
      file: 'documents/claim-2.pdf',
      message: /empty \(0 bytes\)/,
    },
    {
      name: 'document over the size limit',
      files: base,
      file: 'documents/claim-1.pdf',
      message: /over the size limit of 10 bytes/,
      options: { maxFileBytes: 10 },
    },
    {
      name: 'duplicate ids',
      files: { ...base, 'documents/claim-1.png': MINIMAL_PNG },
      file: 'documents/claim-1.png',
      message: /duplicate id "claim-1"/,
    },
    {
      name: 'unsafe id',
      files: { ...base, 'documents/claim 2.pdf': MINIMAL_PDF },
      file: 'documents/claim 2.pdf',
      message: /not a safe file name/,
    },
    {
      name: 'non-UTF-8 truth markdown',
      files: { ...base, 'truth/claim-1.md': Buffer.from([0x50, 0x61, 0x74, 0xe9, 0x0a]) },
      file: 'truth/claim-1.md',
      message: /not valid UTF-8/,
    },
    {
      name: 'non-UTF-8 baseline markdown',
      files: { ...base, 'baseline/claim-1.md': Buffer.from([0xff, 0xfe, 0x00]) },
      file: 'baseline/claim-1.md',
      message: /not valid UTF-8/,
    },
    {
      name: 'region outside the page',
      files: {
        ...base,
        'truth/claim-1.regions.json': [
          {
            page: 1,
            width: 612,
            height: 792,
            bounding_boxes: [{ bounding_box: { min_x: 1, min_y: 1, max_x: 9, max_y: 2 }, content: 'x' }],
          },
        ],
      },
      file: 'truth/claim-1.regions.json',
      message: /outside the 612×792 pt page/,
    },
    {
      name: 'path with ..',
      files: { ...base, 'dataset.json': { documents: [{ file: '../outside.pdf' }] } },
      file: '../outside.pdf',
      message: /uses "\.\."/,
    },
    {
      name: 'absolute path',
      files: { ...base, 'dataset.json': { documents: [{ file: '/etc/passwd.pdf' }] } },
      file: '/etc/passwd.pdf',
      message: /absolute path/,
    },
    {
      name: 'listed file missing',
      files: { ...base, 'dataset.json': { documents: [{ file: 'documents/nope.pdf' }] } },
      file: 'documents/nope.pdf',
      message: /file not found/,
    },
    {
      name: 'unknown comparator type',
      files: { ...base, 'dataset.json': { comparators: { 'codes[].cpt': 'cod' } } },
      file: 'dataset.json',
      message: /comparators\["codes\[\]\.cpt"\]: unknown comparator type "cod"/,
    },
    {
      name: 'bad locale',
      files: { ...base, 'dataset.json': { locale: 'FR' } },
      file: 'dataset.json',
      message: /\/locale/,
    },
    {
      name: 'dataset.json not JSON',
      files: { ...base, 'dataset.json': '{' },
      file: 'dataset.json',
      message: /not valid JSON/,
    },
  ];
  for (const testCase of cases) {
    it(`${testCase.name} → error on ${testCase.file}`, async () => {
      const files = Object.fromEntries(Object.entries(testCase.files).filter(([, value]) => value !== undefined));
      const root = await dataset(files);
      const { problems, dataset: loaded } = await validateDataset(root, testCase.options);
      expect(loaded).toBeUndefined();
      expect(errorsOf(problems)).toContainEqual({
        severity: 'error',
        file: testCase.file,
        message: expect.stringMatching(testCase.message),
      });
    });
  }

  it('missing dataset directory → error on "."', async () => {
    const { problems } = await validateDataset(path.join(os.tmpdir(), 'docbench-no-such-dataset-dir'));
    expect(problems).toEqual([
      { severity: 'error', file: '.', message: expect.stringMatching(/dataset directory not found/) },
    ]);
  });

  it('symlink pointing out of the dataset → error on the link', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'docbench-outside-'));
    created.push(outside);
    await writeFile(path.join(outside, 'secret.pdf'), MINIMAL_PDF);
    const root = await dataset(validFiles());
    await symlink(path.join(outside, 'secret.pdf'), path.join(root, 'documents/linked.pdf'));
    const { problems } = await validateDataset(root);
    expect(errorsOf(problems)).toEqual([
      { severity: 'error', file: 'documents/linked.pdf', message: expect.stringMatching(/symlink pointing outside/) },
    ]);
  });

  it('reports every problem at once', async () => {
    const root = await dataset({
      ...validFiles(),
      'documents/b.pdf': '',
      'documents/c.gif': 'GIF89a',
      'truth/claim-1.json': { patient: {} },
    });
    const files = errorsOf((await validateDataset(root)).problems).map((problem) => problem.file);
    expect(files).toEqual(expect.arrayContaining(['documents/b.pdf', 'documents/c.gif', 'truth/claim-1.json']));
  });
});

describe('loadDataset', () => {
  it('throws DATASET_INVALID listing every error as file: reason, with a hint', async () => {
    const root = await dataset({ ...validFiles(), 'documents/b.pdf': '', 'truth/claim-1.json': { patient: {} } });
    const error = await loadDataset(root).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('DATASET_INVALID');
    expect((error as UsageError).message).toContain('documents/b.pdf: is empty');
    expect((error as UsageError).message).toContain('truth/claim-1.json: does not match schema.json');
    expect((error as UsageError).hint).toContain(`docbench dataset validate ${root}`);
  });

  it('returns the dataset and sends warnings to the logger', async () => {
    const root = await dataset({ ...validFiles(), 'truth/ghost.md': 'x' });
    const logger = createMemoryLogger();
    const loaded = await loadDataset(root, { logger });
    expect(loaded.documents.map((document) => document.id)).toEqual(['claim-1']);
    expect(logger.lines).toEqual([
      { level: 'warn', message: expect.stringContaining('truth/ghost.md: no document with id "ghost"') },
    ]);
  });
});
