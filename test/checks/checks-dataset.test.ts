/** checks.jsonl in a dataset: each bad line reported with its line and field, before anything runs. */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateDataset } from '../../src/dataset/index.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { MINIMAL_PDF, writeDataset } from '../dataset/fixture.js';

const SAMPLE_PDFS = path.resolve(
  ROOT,
  '..',
  'shared',
  'reference',
  'olmocr-bench',
  'olmocr',
  'bench',
  'sample_data',
  'pdfs',
);
const created: string[] = [];
async function dataset(files: Record<string, string | Buffer | object>): Promise<string> {
  const root = await writeDataset(files);
  created.push(root);
  return root;
}
afterEach(async () => {
  for (const root of created.splice(0)) await rm(root, { recursive: true, force: true });
});

const line = (check: object): string =>
  JSON.stringify({ pdf: 'a.pdf', page: 1, id: 'c1', type: 'present', text: 'x', ...check });

describe('checks.jsonl validation', () => {
  it('accepts documents and checks without schema.json, and records the file', async () => {
    const root = await dataset({ 'documents/a.pdf': MINIMAL_PDF, 'checks.jsonl': `${line({})}\n\n` });
    const validation = await validateDataset(root);
    expect(validation.problems).toEqual([]);
    expect(validation.dataset?.checksFile).toMatch(/checks\.jsonl$/);
  });

  it('still needs schema.json without checks', async () => {
    const root = await dataset({ 'documents/a.pdf': MINIMAL_PDF });
    const { problems } = await validateDataset(root);
    expect(problems.map((p) => p.file)).toContain('schema.json');
  });

  it('names the line and field of every bad check', async () => {
    const checks = [
      line({}),
      '{not json',
      line({ id: 'c2', type: 'nonsense' }),
      line({ id: 'c3', text: '   ' }),
      line({ id: 'c4', max_diffs: -1 }),
      line({ id: 'c1' }),
      line({ id: 'c5', pdf: 'missing.pdf' }),
      line({ id: 'c6', extra: 1 }),
    ].join('\n');
    const root = await dataset({ 'documents/a.pdf': MINIMAL_PDF, 'checks.jsonl': checks });
    const { problems, dataset: loaded } = await validateDataset(root);
    expect(loaded).toBeUndefined();
    expect(problems.map((p) => `${p.file} ${p.message}`)).toEqual([
      expect.stringMatching(/^checks\.jsonl line 2: is not valid JSON/),
      expect.stringMatching(/^checks\.jsonl line 3: check "c2": field "type" must be one of/),
      'checks.jsonl line 4: check "c3": field "text" cannot be empty',
      expect.stringMatching(/^checks\.jsonl line 5: check "c4": field "max_diffs" must be an integer ≥ 0/),
      'checks.jsonl line 6: check "c1": field "id" repeats the id of line 1',
      'checks.jsonl line 7: check "c5": field "pdf" names "missing.pdf", not a document of documents/',
      'checks.jsonl line 8: check "c6": field "extra" is not a field of a present check',
    ]);
  });

  it('refuses a page the document does not have', async () => {
    const pdf = await readFile(path.join(SAMPLE_PDFS, 'buildingnotes.pdf'));
    const root = await dataset({ 'documents/a.pdf': pdf, 'checks.jsonl': line({ page: 3 }) });
    const { problems } = await validateDataset(root);
    expect(problems.map((p) => `${p.file} ${p.message}`)).toEqual([
      'checks.jsonl line 1: check "c1": field "page" is 3, but a.pdf has 1 page',
    ]);
  });

  it('refuses a stored output that is not UTF-8, and `dataset validate` exits 2 naming it', async () => {
    const root = await dataset({
      'documents/a.pdf': MINIMAL_PDF,
      'checks.jsonl': line({}),
      'outputs/tool/a.md': Buffer.from([0x66, 0xff, 0xfe, 0x0a]),
    });
    const result = await runCli(['dataset', 'validate', root], root);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toMatch(/outputs\/tool\/a\.md.*not valid UTF-8/);
  });
});

describe('repeats', () => {
  it('a check passes on a system when more than half of its stored repeats pass', async () => {
    const root = await dataset({
      'documents/a.pdf': MINIMAL_PDF,
      'checks.jsonl': line({ text: 'Total due' }),
      'outputs/tool/a.md': 'Total due: 12',
      'outputs/tool/a.repeat2.md': 'Total: 12',
      'outputs/tool/a.repeat3.md': 'Sum: 12',
    });
    const config = JSON.stringify({ systems: { tool: { kind: 'stored' } } });
    await writeFile(path.join(root, '..', `${path.basename(root)}.config.json`), config);
    const run = async (out: string) => {
      const result = await runCli(
        [
          'run',
          '--dataset',
          root,
          '--config',
          `${root}.config.json`,
          '--endpoints',
          'compare',
          '--repeat',
          '3',
          '--out',
          out,
        ],
        root,
      );
      expect(result.code, result.stderr).toBe(0);
      const line = JSON.parse((await readFile(path.join(out, 'documents.jsonl'), 'utf8')).split('\n')[0] as string);
      return line.systems.tool.checks.results.find((r: { id: string }) => r.id === 'c1');
    };
    expect(await run(path.join(root, 'run1'))).toMatchObject({ status: 'failed', repeats_passed: 1, repeats: 3 });
    await writeFile(path.join(root, 'outputs/tool/a.repeat3.md'), 'Total due: 12.00');
    expect(await run(path.join(root, 'run2'))).toMatchObject({ status: 'passed', repeats_passed: 2, repeats: 3 });
  });
});
