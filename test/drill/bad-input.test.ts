/**
 * Bad-input drill: every kind of bad input to `docbench run` stops before any call with a clear
 * error naming the file, field or flag, exit 2, and NOTHING written — no run directory (under reports/ or
 * --out), no cache directory, no request to the service.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, tinyPdf, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { runCli } from '../helpers/cli.js';

let work: string;
let dataset: string;
let service: FakeService;

beforeAll(async () => {
  service = await startFakeService();
});
afterAll(() => service?.close());

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-bad-input-'));
  dataset = await writeTinyDataset(path.join(work, 'data'), tinyDocuments(3));
});
afterEach(() => rm(work, { recursive: true, force: true }));

/** dataset.json with these document entries (the tiny dataset's own files stay in place). */
async function writeEntries(entries: unknown[]): Promise<void> {
  await writeFile(path.join(dataset, 'dataset.json'), JSON.stringify({ name: 'tiny', documents: entries }));
}

/**
 * Runs `docbench run` with `args` and checks the contract: exit 2, every `mentions` pattern in stderr, and
 * nothing written: `work` holds exactly what it held before (the dataset and any config), no request made.
 */
async function expectRejected(args: string[], mentions: RegExp[]): Promise<string> {
  const before = (await readdir(work)).sort();
  const requests = service.requests.length;
  const { code, stdout, stderr } = await runCli(['run', ...args], work);
  expect(code, stderr).toBe(2);
  for (const pattern of mentions) expect(stderr).toMatch(pattern);
  expect((await readdir(work)).sort()).toEqual(before);
  expect(existsSync(path.join(work, 'reports'))).toBe(false);
  expect(existsSync(path.join(work, 'out'))).toBe(false);
  expect(existsSync(path.join(work, '.docbench-cache'))).toBe(false);
  expect(service.requests.length).toBe(requests);
  expect(stdout).not.toMatch(/report\.html/);
  return stderr;
}

const run = (extra: string[] = []) => ['--dataset', dataset, '--base-url', service.baseUrl, '--out', 'out', ...extra];

describe('bad dataset → exit 2, the file named, nothing written', () => {
  it('a missing dataset directory', async () => {
    await expectRejected(
      ['--dataset', path.join(work, 'nope'), '--base-url', service.baseUrl, '--out', 'out'],
      [/dataset directory not found: .*nope/],
    );
  });

  it('a bad dataset with no --base-url: the local service is not started, no cache or store written', async () => {
    await writeFile(path.join(dataset, 'schema.json'), 'not json');
    await expectRejected(['--dataset', dataset, '--out', 'out'], [/schema\.json: is not valid JSON/]);
  });

  it('an empty dataset', async () => {
    await writeEntries([]);
    await expectRejected(run(), [/dataset\.json: the dataset has no documents/]);
    const bare = path.join(work, 'bare');
    await mkdir(bare);
    await writeFile(path.join(bare, 'schema.json'), '{"type":"object","properties":{}}');
    await expectRejected(['--dataset', bare, '--base-url', service.baseUrl, '--out', 'out'], [/documents\/: missing/]);
  });

  it('invalid schema JSON', async () => {
    await writeFile(path.join(dataset, 'schema.json'), '{"type": "object", "properties": {');
    await expectRejected(run(), [/schema\.json: is not valid JSON/]);
  });

  it('a truth file that does not match the schema', async () => {
    await writeFile(path.join(dataset, 'truth', 'doc-002.json'), JSON.stringify({ name: 42 }));
    await expectRejected(run(), [/truth\/doc-002\.json/, /name/]);
  });

  it('an unsupported extension, and an extension that lies about the content', async () => {
    await writeFile(path.join(dataset, 'documents', 'doc-002.xlsx'), 'a,b\n1,2\n');
    await writeEntries([
      { id: 'doc-001', file: 'documents/doc-001.pdf' },
      { id: 'doc-002', file: 'documents/doc-002.xlsx' },
    ]);
    await expectRejected(run(), [/documents\/doc-002\.xlsx: unsupported format "\.xlsx"/]);
    await writeFile(path.join(dataset, 'documents', 'doc-002.pdf'), '<html>not a pdf</html>');
    await writeEntries([
      { id: 'doc-001', file: 'documents/doc-001.pdf' },
      { id: 'doc-002', file: 'documents/doc-002.pdf' },
    ]);
    await expectRejected(run(), [/documents\/doc-002\.pdf: content is not a PDF, PNG, JPEG or TIFF/]);
  });

  it('a zero-byte file', async () => {
    await writeFile(path.join(dataset, 'documents', 'doc-003.pdf'), '');
    await expectRejected(run(), [/documents\/doc-003\.pdf: is empty \(0 bytes\)/]);
  });

  it('a file over the size limit', async () => {
    // Sparse: 65 MiB on paper, no disk used.
    const big = path.join(dataset, 'documents', 'doc-003.pdf');
    await writeFile(big, tinyPdf(tinyDocuments(3)[2]!));
    await truncate(big, 65 * 1024 * 1024);
    await expectRejected(run(), [/documents\/doc-003\.pdf: is 65\.0 MiB, over the size limit of 64\.0 MiB/]);
  });

  it('paths with .., absolute paths and symlinks that leave the dataset', async () => {
    const outside = path.join(work, 'outside.pdf');
    await writeFile(outside, tinyPdf(tinyDocuments(1)[0]!));
    await writeEntries([{ id: 'doc-001', file: '../outside.pdf' }]);
    await expectRejected(run(), [/\.\.\/outside\.pdf/]);
    await writeEntries([{ id: 'doc-001', file: outside }]);
    await expectRejected(run(), [new RegExp(`${outside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `)]);
    await symlink(outside, path.join(dataset, 'documents', 'doc-009.pdf'));
    await writeEntries([
      { id: 'doc-001', file: 'documents/doc-001.pdf' },
      { id: 'doc-009', file: 'documents/doc-009.pdf' },
    ]);
    await expectRejected(run(), [/documents\/doc-009\.pdf: .*(outside|symlink)/]);
  });

  it('duplicate ids', async () => {
    await writeEntries([
      { id: 'doc-001', file: 'documents/doc-001.pdf' },
      { id: 'doc-001', file: 'documents/doc-002.pdf' },
    ]);
    await expectRejected(run(), [/duplicate id "doc-001"/]);
  });

  it('markdown that is not UTF-8', async () => {
    await writeFile(path.join(dataset, 'truth', 'doc-001.md'), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x41, 0x0a]));
    await writeFile(path.join(dataset, 'baseline', 'doc-002.md'), Buffer.from('Caf\xe9\n', 'latin1'));
    await expectRejected(run(), [
      /truth\/doc-001\.md: is not valid UTF-8/,
      /baseline\/doc-002\.md: is not valid UTF-8/,
    ]);
  });
});

describe('bad config and flags → exit 2, the file or flag named, nothing written', () => {
  it('a malformed config file (JSON, YAML, an unknown setting, a key in the file)', async () => {
    await writeFile(path.join(work, 'docbench.config.json'), '{"concurrency": 2,');
    await expectRejected(run(), [/docbench\.config\.json/]);
    await rm(path.join(work, 'docbench.config.json'));
    await writeFile(path.join(work, 'docbench.config.yaml'), 'retry: { maxAttempts: 2\nmodes: [slow');
    await expectRejected(run(), [/docbench\.config\.yaml/]);
    await writeFile(path.join(work, 'docbench.config.yaml'), 'concurency: 2\n');
    await expectRejected(run(), [/docbench\.config\.yaml/, /concurency/]);
    await writeFile(path.join(work, 'docbench.config.yaml'), 'apiKey: sk-in-a-file\n');
    await expectRejected(run(), [/apiKey/]);
  });

  it('invalid flags: concurrency 0, shard 3/2, an unknown mode or endpoint, a missing config file', async () => {
    await expectRejected(run(['--concurrency', '0']), [/--concurrency/]);
    await expectRejected(run(['--shard', '3/2']), [/--shard/, /3\/2/]);
    await expectRejected(run(['--modes', 'turbo']), [/--modes/, /turbo/]);
    await expectRejected(run(['--endpoints', 'extract,ocr']), [/--endpoints/, /ocr/]);
    await expectRejected(run(['--retries', '0']), [/--retries/]);
    await expectRejected(run(['--config', 'missing.yaml']), [/missing\.yaml/]);
    await expectRejected(
      ['--dataset', dataset, '--base-url', 'ftp://example.com', '--out', 'out'],
      [/ftp:\/\/example\.com/],
    );
  });

  it('a misspelt flag: refused before the run starts (yargs reports it, and docbench must not go on)', async () => {
    await expectRejected(run(['--concurency', '2']), [/Unknown argument: concurency/, /docbench --help/]);
  });

  it('a flag given twice, and a seed that is not a number (it used to reach run.json and damage it)', async () => {
    await expectRejected(run(['--endpoints', 'extract', '--endpoints', 'compare']), [
      /--endpoints was given 2 times \("extract", "compare"\)/,
      /--endpoints extract,compare/,
    ]);
    await expectRejected(
      ['--dataset', dataset, '--dataset', dataset, '--base-url', service.baseUrl, '--out', 'out'],
      [/--dataset was given 2 times/],
    );
    await expectRejected(run(['--concurrency', '2', '--concurrency', '3']), [/--concurrency was given 2 times/]);
    await expectRejected(run(['--sample', '2', '--seed', 'abc']), [/--seed is not a number/]);
    // --filter is repeatable: two get past the check, to the selection (which neither tag matches here).
    await expectRejected(run(['--filter', 'tier=x', '--filter', 'kind=y']), [
      /no document of .* matches the selection/,
    ]);
  });

  it('an --out that already holds files, and a --resume of a directory that is not a run: exit 2, the files untouched', async () => {
    await mkdir(path.join(work, 'taken'));
    await writeFile(path.join(work, 'taken', 'notes.txt'), 'mine');
    await expectRejected(
      ['--dataset', dataset, '--base-url', service.baseUrl, '--out', 'taken'],
      [/taken already holds files/, /--out/],
    );
    expect(await readdir(path.join(work, 'taken'))).toEqual(['notes.txt']);
    await expectRejected(
      ['--resume', 'taken', '--base-url', service.baseUrl],
      [/run\.json not found: .*taken is not a docbench run directory/],
    );
    expect(await readdir(path.join(work, 'taken'))).toEqual(['notes.txt']);
  });
});

describe('other commands: a missing argument, a misspelt flag, a run scored from elsewhere → exit 2, nothing written', () => {
  it('score and report without their run directory, or with a flag they do not have', async () => {
    const made = await runCli(['run', ...run(['--quiet'])], work);
    expect(made.code, made.stderr).toBe(0);
    const report = path.join(work, 'out', 'report.html');
    const written = (await stat(report)).mtimeMs;
    for (const args of [
      ['score'],
      ['report'],
      ['report', 'out', '--format', 'pdf'],
      ['score', 'out', '--datset', 'data'],
    ]) {
      const { code, stderr } = await runCli(args, work);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/^error: (Not enough non-option arguments|Unknown argument)/);
      expect(stderr).not.toMatch(/unexpected error/);
    }
    expect((await stat(report)).mtimeMs).toBe(written);
  });

  it('score and merge from a directory where the recorded dataset path does not lead: the path and --dataset named', async () => {
    expect((await runCli(['run', ...run(['--quiet'])], work)).code).toBe(0);
    const elsewhere = await mkdtemp(path.join(work, 'elsewhere-'));
    // run.json records the dataset as given: an absolute path here, so make it relative as a user's would be.
    const manifestFile = path.join(work, 'out', 'run.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { dataset: { path: string } };
    manifest.dataset.path = 'data';
    await writeFile(manifestFile, JSON.stringify(manifest));
    const scored = await runCli(['score', path.join(work, 'out')], elsewhere);
    expect(scored.code).toBe(2);
    expect(scored.stderr).toMatch(/was made on the dataset at data, which is not found from .*elsewhere-/);
    expect(scored.stderr).toMatch(/--dataset/);
    const merged = await runCli(['merge', path.join(work, 'out'), '--out', 'merged'], elsewhere);
    expect(merged.code).toBe(2);
    expect(merged.stderr).toMatch(/which is not found from/);
    expect(existsSync(path.join(elsewhere, 'merged'))).toBe(false);
    expect((await runCli(['score', path.join(work, 'out'), '--dataset', dataset, '--quiet'], elsewhere)).code).toBe(0);
  });
});
