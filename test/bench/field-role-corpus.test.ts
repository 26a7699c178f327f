/**
 * The field-role corpus (bench/support/field-role-corpus.ts, docs/field-role-corpus.md): built from paraphrase
 * variants and labels, split by variant name, read back with errors that name the line, and scored.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildFieldRoleCorpus,
  CORPUS_DIR,
  type CorpusEntry,
  type CorpusLabels,
  PARAPHRASES_DIR,
  partOf,
  readCorpusLabels,
  readFieldRoleCorpus,
  scoreFieldRoles,
  splitCorpus,
} from '../../bench/support/field-role-corpus.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-field-roles-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const LABELS: CorpusLabels = {
  about: 'test',
  sets: {
    bills: {
      vendor: { type: 'string', description: 'who sent the bill', role: 'issuer' },
      'buyer.name': { type: 'string', role: null },
      when: { type: 'string', format: 'date', role: 'document-date' },
    },
  },
};

async function writeVariant(name: string, properties: object): Promise<void> {
  await mkdir(path.join(dir, 'bills'), { recursive: true });
  await writeFile(path.join(dir, 'bills', `${name}.json`), JSON.stringify({ about: name, properties }));
}

describe('building the corpus', () => {
  it("takes each labelled field in the original wording and in every variant's that words it", async () => {
    await writeVariant('erp', {
      vendor: { name: 'supplier', title: 'Supplier' },
      buyer: { name: 'customer', properties: { name: { name: 'full_name', description: 'customer name' } } },
    });
    await writeVariant('held-out-api', { when: { name: 'issued_on' } });
    const entries = await buildFieldRoleCorpus(dir, LABELS);
    expect(entries).toEqual([
      {
        set: 'bills',
        variant: 'original',
        field: 'vendor',
        path: ['vendor'],
        type: 'string',
        description: 'who sent the bill',
        role: 'issuer',
      },
      { set: 'bills', variant: 'original', field: 'buyer.name', path: ['buyer', 'name'], type: 'string', role: null },
      {
        set: 'bills',
        variant: 'original',
        field: 'when',
        path: ['when'],
        type: 'string',
        format: 'date',
        role: 'document-date',
      },
      // The variant's title replaces the original wording: the old description is not carried over.
      {
        set: 'bills',
        variant: 'erp',
        field: 'vendor',
        path: ['supplier'],
        type: 'string',
        title: 'Supplier',
        role: 'issuer',
      },
      {
        set: 'bills',
        variant: 'erp',
        field: 'buyer.name',
        path: ['customer', 'full_name'],
        type: 'string',
        description: 'customer name',
        role: null,
      },
      {
        set: 'bills',
        variant: 'held-out-api',
        field: 'when',
        path: ['issued_on'],
        type: 'string',
        format: 'date',
        role: 'document-date',
      },
    ]);
    const parts = splitCorpus(entries);
    expect(
      parts['held-out']
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).variant),
    ).toEqual(['held-out-api']);
    expect(parts.dev.trim().split('\n')).toHaveLength(5);
  });

  it("labels a variant's wording that asks for another role, and refuses a relabelling that names nothing", async () => {
    await writeVariant('remit', { vendor: { name: 'RemitTo', description: 'where to send the payment' } });
    const reworded = { 'bills/remit/vendor': { role: 'payee', why: 'asks whom to pay' } };
    const entries = await buildFieldRoleCorpus(dir, { ...LABELS, reworded });
    expect(entries.find((e) => e.variant === 'remit')?.role).toBe('payee');
    expect(entries.find((e) => e.variant === 'original' && e.field === 'vendor')?.role).toBe('issuer');
    await expect(
      buildFieldRoleCorpus(dir, { ...LABELS, reworded: { 'bills/remmit/vendor': reworded['bills/remit/vendor'] } }),
    ).rejects.toThrow(/bills\/remmit\/vendor/);
  });

  it('splits by the variant file name alone', () => {
    expect(partOf('held-out-dutch')).toBe('held-out');
    expect(partOf('german')).toBe('dev');
    expect(partOf('original')).toBe('dev');
    expect(partOf('not-held-out-x')).toBe('dev');
  });

  it('committed files are what the paraphrases and labels make, the held-out one only held-out variants', async () => {
    const parts = splitCorpus(await buildFieldRoleCorpus(PARAPHRASES_DIR, await readCorpusLabels()));
    expect(await readFile(path.join(CORPUS_DIR, 'dev.jsonl'), 'utf8')).toBe(parts.dev);
    expect(await readFile(path.join(CORPUS_DIR, 'held-out.jsonl'), 'utf8')).toBe(parts['held-out']);
    const heldOut = await readFieldRoleCorpus(path.join(CORPUS_DIR, 'held-out.jsonl'));
    expect(heldOut.length).toBeGreaterThan(0);
    expect(heldOut.every((entry) => entry.variant.startsWith('held-out-'))).toBe(true);
  });
});

describe('reading a corpus file', () => {
  const line = (entry: object) => JSON.stringify(entry);
  const good = { set: 's', variant: 'v', field: 'f', path: ['f'], type: 'string', role: null };

  it('reads JSON lines, blank lines skipped', async () => {
    const file = path.join(dir, 'dev.jsonl');
    await writeFile(file, `${line(good)}\n\n${line({ ...good, role: 'total', type: 'number' })}\n`);
    expect((await readFieldRoleCorpus(file)).map((e) => e.role)).toEqual([null, 'total']);
  });

  it.each([
    ['{"set":', /dev\.jsonl:2: not JSON/],
    [line({ ...good, role: undefined }), /dev\.jsonl:2: "role" must be a role name or null/],
    [line({ ...good, path: [] }), /dev\.jsonl:2: "path" must be a non-empty array/],
    [line({ ...good, type: '' }), /dev\.jsonl:2: "type" must be a non-empty string/],
    [line({ ...good, title: 3 }), /dev\.jsonl:2: "title" must be a string/],
    ['[1]', /dev\.jsonl:2: not a JSON object/],
  ])('names the file and line of a bad entry: %s', async (bad, message) => {
    const file = path.join(dir, 'dev.jsonl');
    await writeFile(file, `${line(good)}\n${bad}\n`);
    await expect(readFieldRoleCorpus(file)).rejects.toThrow(message);
  });
});

describe('scoring a classifier on the corpus', () => {
  const entry = (name: string, role: string | null): CorpusEntry => ({
    set: 's',
    variant: 'v',
    field: name,
    path: [name],
    type: 'string',
    role,
  });
  const corpus = [
    entry('seller', 'issuer'),
    entry('vendor', 'issuer'),
    entry('shop', 'issuer'),
    entry('when', 'document-date'),
    entry('patient', null),
    entry('notes', null),
  ];
  /** Reads `seller` and `vendor` right, `shop` as a date, `patient` as the issuer, abstains on the rest. */
  const classify = (p: string[]) =>
    ({ seller: 'issuer', vendor: 'issuer', shop: 'document-date', patient: 'issuer' })[p[0]!] ?? null;

  it('gives accuracy over every field and precision and recall per role', () => {
    const score = scoreFieldRoles(corpus, classify);
    expect(score.entries).toBe(6);
    // seller, vendor and notes (abstained, no role) are right.
    expect(score.correct).toBe(3);
    expect(score.accuracy).toBe(0.5);
    expect(score.roles).toEqual([
      { role: 'document-date', support: 1, tp: 0, fp: 1, fn: 1, precision: 0, recall: 0 },
      { role: 'issuer', support: 3, tp: 2, fp: 1, fn: 1, precision: 2 / 3, recall: 2 / 3 },
    ]);
    expect(score.misses.map((m) => [m.entry.field, m.predicted])).toEqual([
      ['shop', 'document-date'],
      ['when', null],
      ['patient', 'issuer'],
    ]);
  });

  it('leaves precision undefined for a role never predicted, and passes the wording to the classifier', () => {
    const seen: unknown[] = [];
    const score = scoreFieldRoles(
      [{ ...entry('total', 'total'), type: 'number', format: 'x', title: 'T', description: 'D' }],
      (p, type, format, wording) => {
        seen.push([p, type, format, wording]);
        return null;
      },
    );
    expect(seen).toEqual([[['total'], 'number', 'x', { title: 'T', description: 'D' }]]);
    expect(score.roles).toEqual([{ role: 'total', support: 1, tp: 0, fp: 0, fn: 1, precision: null, recall: 0 }]);
    expect(scoreFieldRoles([], classify)).toMatchObject({ entries: 0, accuracy: 0, roles: [] });
  });
});
