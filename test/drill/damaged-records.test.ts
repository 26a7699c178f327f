/**
 * Damaged call records: each endpoint's line of results.jsonl (extract, compare, split, process), successful
 * or failed, with its result or error damaged in each way a line can be (dropped, of the wrong type, emptied,
 * a field of the wrong type, a field deeper inside it), stops `docbench score` with exit 2 naming
 * results.jsonl, the line and the JSON path inside it — never a TypeError or exit 3 — as
 * src/run-dir/formats/results.ts defines each format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { runCli } from '../helpers/cli.js';

type Json = Record<string, unknown>;

let root: string;
let dataset: string;
let pristine: string;
let service: FakeService;
/** The pristine run's results.jsonl lines. */
let lines: Json[];

beforeAll(async () => {
  service = await startFakeService();
  root = await mkdtemp(path.join(tmpdir(), 'docbench-damaged-records-'));
  dataset = await writeTinyDataset(path.join(root, 'data'), tinyDocuments(2));
  pristine = path.join(root, 'pristine');
  const args = [
    'run',
    '--dataset',
    dataset,
    '--base-url',
    service.baseUrl,
    '--out',
    pristine,
    '--endpoints',
    'extract,compare,split,process',
    '--modes',
    'fast',
    '--no-cache',
    '--quiet',
  ];
  const { code, stderr } = await runCli(args, root);
  expect(code, stderr).toBe(0);
  lines = (await readFile(path.join(pristine, 'results.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Json);
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** A way to damage a line, and the JSON path (with what was expected there) the message must name. */
interface Damage {
  name: string;
  edit(record: Json): Json;
  where: string;
}

/** A successful line as a failed one: without the error a failed line must carry. */
const failed = (record: Json): Json => {
  const { result: _result, ...rest } = record;
  return {
    ...rest,
    status: 'failed',
    error: { code: 'SERVICE_HTTP', message: 'POST failed: 500', status: 500, retryable: true },
  };
};

/**
 * A field of the endpoint's result that every success has, of the wrong type; and the first one its format
 * requires, which an empty result is missing.
 */
const RESULT_FIELD: Record<string, { field: string; expected: string; first: string }> = {
  extract: { field: 'data', expected: 'object', first: 'data' },
  compare: { field: 'pages', expected: 'array', first: 'success' },
  split: { field: 'pages', expected: 'array', first: 'pages' },
  process: { field: 'text', expected: 'string', first: 'status' },
};

/** A field deeper inside the endpoint's result, damaged, and where that is. */
const NESTED: Record<string, { edit(result: Json): Json; where: string }> = {
  extract: {
    edit: (r) => ({ ...r, responseForm: 'scribbled' }),
    where: '$.result.responseForm: expected one of "string", "object", "embedded", "absent", found string "scribbled"',
  },
  compare: {
    edit: (r) => ({ ...r, pages: [{ ...(r.pages as Json[])[0], content: null }] }),
    where: '$.result.pages[0].content: expected string, found null',
  },
  split: {
    edit: (r) => ({ ...r, pages: [{ ...(r.pages as Json[])[0], bounding_boxes: 'none' }] }),
    where: '$.result.pages[0].bounding_boxes: expected array, found string "none"',
  },
  process: { edit: (r) => ({ ...r, pageCount: -1 }), where: '$.result.pageCount: must be >= 0, found number -1' },
};

function damagesOf(endpoint: string): Damage[] {
  const { field, expected, first } = RESULT_FIELD[endpoint]!;
  const nested = NESTED[endpoint]!;
  return [
    {
      name: 'ok without its result',
      edit: ({ result: _dropped, ...rest }) => rest,
      where: '$.result: expected a value, found none',
    },
    {
      name: 'ok with an empty result',
      edit: (r) => ({ ...r, result: {} }),
      where: `$.result.${first}: expected a value, found none`,
    },
    {
      name: 'ok with a result that is a string',
      edit: (r) => ({ ...r, result: 'done' }),
      where: '$.result: expected object, found string "done"',
    },
    {
      name: `ok whose result.${field} is a number`,
      edit: (r) => ({ ...r, result: { ...(r.result as Json), [field]: 7 } }),
      where: `$.result.${field}: expected ${expected}, found number 7`,
    },
    {
      name: 'ok with a damaged field deeper inside its result',
      edit: (r) => ({ ...r, result: nested.edit(r.result as Json) }),
      where: nested.where,
    },
    {
      name: 'failed without its error',
      edit: (r) => {
        const { error: _e, ...rest } = failed(r);
        return rest;
      },
      where: '$.error: expected a value, found none',
    },
    {
      name: 'failed whose error.code is a number',
      edit: (r) => {
        const f = failed(r);
        return { ...f, error: { ...(f.error as Json), code: 42 } };
      },
      where: '$.error.code: expected string, found number 42',
    },
    {
      name: 'with an unknown status',
      edit: (r) => ({ ...r, status: 'fine' }),
      where: '$.status: expected one of "ok", "failed", found string "fine"',
    },
  ];
}

let cases = 0;

describe('a damaged call record → docbench score exits 2 with results.jsonl, the line and the JSON path', () => {
  for (const endpoint of ['extract', 'compare', 'split', 'process']) {
    for (const damage of damagesOf(endpoint)) {
      it(`${endpoint}: ${damage.name}`, async () => {
        const index = lines.findIndex((record) => record.endpoint === endpoint);
        expect(index, `the run has a ${endpoint} call`).toBeGreaterThanOrEqual(0);
        const run = path.join(root, `case-${++cases}`);
        await cp(pristine, run, { recursive: true });
        const edited = lines.map((record, i) => JSON.stringify(i === index ? damage.edit(record) : record));
        await writeFile(path.join(run, 'results.jsonl'), `${edited.join('\n')}\n`);
        const { code, stderr } = await runCli(['score', run, '--dataset', dataset], root);
        expect(code, stderr).toBe(2);
        expect(stderr).toContain(`${path.join(run, 'results.jsonl')}:${index + 1} is damaged: at ${damage.where}`);
        expect(stderr).not.toMatch(/unexpected error|TypeError/);
      }, 60_000);
    }
  }

  it('a failed line of each endpoint, intact, is scored as a failure (exit 0)', async () => {
    const run = path.join(root, `case-${++cases}`);
    await cp(pristine, run, { recursive: true });
    const firstOf = new Set<string>();
    const edited = lines.map((record) => {
      if (firstOf.has(record.endpoint as string)) return record;
      firstOf.add(record.endpoint as string);
      return failed(record);
    });
    expect([...firstOf].sort()).toEqual(['compare', 'extract', 'process', 'split']);
    await writeFile(path.join(run, 'results.jsonl'), `${edited.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const { code, stderr } = await runCli(['score', run, '--dataset', dataset], root);
    expect(code, stderr).toBe(0);
  }, 60_000);

  it('a damaged response cache entry is a miss: the system is called again and the run scores', async () => {
    const work = path.join(root, `case-${++cases}`);
    await mkdir(work);
    await writeFile(path.join(work, 'docbench.config.json'), JSON.stringify({ cacheDir: 'cache' }));
    const run = (out: string) =>
      runCli(
        [
          'run',
          '--dataset',
          dataset,
          '--base-url',
          service.baseUrl,
          '--out',
          out,
          '--endpoints',
          'extract,compare,split,process',
          '--modes',
          'fast',
        ],
        work,
      );
    expect((await run('first')).code).toBe(0);
    const calls = service.requests.length;
    // Every entry damaged, in turn in each of these ways: JSON still, but no endpoint's answer.
    const damages: ((entry: Json) => unknown)[] = [
      (entry) => ({ ...entry, result: {} }),
      (entry) => ({ ...entry, result: null }),
      () => [],
      (entry) => ({ ...entry, result: 'done' }),
    ];
    const entries: string[] = [];
    for (const dir of await readdir(path.join(work, 'cache'))) {
      for (const name of await readdir(path.join(work, 'cache', dir)))
        entries.push(path.join(work, 'cache', dir, name));
    }
    const called = lines.filter((record) => record.attempts !== 0);
    expect(entries).toHaveLength(called.length);
    for (const [index, entry] of entries.entries())
      await writeFile(
        entry,
        JSON.stringify(damages[index % damages.length]!(JSON.parse(await readFile(entry, 'utf8')) as Json)),
      );

    const second = await run('second');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(
      /the response cache's entry [0-9a-f]{64} is damaged: at \$\.result\.\w+: expected a value, found none/,
    );
    expect(second.stderr).toMatch(
      /the response cache's entry [0-9a-f]{64} is damaged: at \$\.result: expected object, found null/,
    );
    expect(second.stderr).not.toMatch(/unexpected error|TypeError/);
    expect(service.requests.length).toBe(calls + called.length);
    const records = (await readFile(path.join(work, 'second', 'results.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json);
    const again = records.filter((record) => record.attempts !== 0);
    expect(again.map((record) => [record.status, record.from_cache])).toEqual(called.map(() => ['ok', false]));
    // The fresh answers replaced the damaged entries: a third run is served from the cache.
    expect((await run('third')).code).toBe(0);
    expect(service.requests.length).toBe(calls + called.length);
  }, 120_000);
});
