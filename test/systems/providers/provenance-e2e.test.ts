/**
 * Provenance of an `openai` system through `docbench run`, against a fake OpenAI-compatible server that answers
 * as OpenAI's chat completions do (https://platform.openai.com/docs/api-reference/chat/object): the dated
 * snapshot in `model` whatever alias was asked for, a `system_fingerprint`, and `finish_reason: "length"` with
 * the content cut where `max_tokens` stopped it. What each test expects is what the fake was told to say:
 * - two runs whose snapshot changed between them keep snapshot and fingerprint in run.json, and `docbench
 *   diff` names both snapshots before any figure;
 * - a value that changes within a run is warned about and marked in the report;
 * - an answer cut short is a failed call of its own class (SERVICE_OUTPUT_TRUNCATED), not retried, counted
 *   apart in summary.json, report.html and summary.md; with `retryMaxTokens` it is asked once more with that limit.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ROOT, readJson, readJsonl, runCli } from '../../helpers/cli.js';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import { sendJson } from './context.js';

const DOCUMENTS = 3;
/** An answer in the sample schema's shape (its fields are scored; a key outside the schema would not be). */
const ANSWER = JSON.stringify({
  patient: { name: 'Ann Lee' },
  billing_summary: { claim_number: 'C-1', total_charges: 125 },
});

/** What the fake says of itself and how it ends its answers; tests change it between runs. */
const behaviour = {
  snapshot: (_n: number) => 'vision-mini-2024-07-18',
  fingerprint: 'fp_44709d6fcb',
  /** Whether the n-th request (1-based) of the current run is cut at its max_tokens. */
  truncate: (_n: number, _maxTokens: number | undefined) => false,
  /** The answer to the `seen`-th request (1-based) for the `page`-th distinct page image of the run. */
  answer: (_page: number, _seen: number) => ANSWER,
};
/** Each distinct page image of the current run: its order of first appearance and how often it was sent. */
let images = new Map<string, { page: number; seen: number }>();
let requests: { maxTokens: number | undefined }[] = [];
let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docbench-provenance-'));
  await cp(path.join(ROOT, 'datasets', 'sample-claims'), path.join(dir, 'dataset'), { recursive: true });
  server = await startHttpServer((request, response) => {
    const text = request.body.toString('utf8');
    const body = JSON.parse(text) as { model: string; max_tokens?: number };
    requests.push({ maxTokens: body.max_tokens });
    const n = requests.length;
    const cut = behaviour.truncate(n, body.max_tokens);
    const image = /data:image\/png;base64,[^"]+/.exec(text)?.[0] ?? '';
    const entry = images.get(image) ?? { page: images.size + 1, seen: 0 };
    entry.seen++;
    images.set(image, entry);
    const content = behaviour.answer(entry.page, entry.seen);
    sendJson(response, 200, {
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      // Asked for an alias, the server names the snapshot that answered.
      model: behaviour.snapshot(n),
      system_fingerprint: behaviour.fingerprint,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: cut ? content.slice(0, 20) : content, refusal: null },
          finish_reason: cut ? 'length' : 'stop',
        },
      ],
      usage: { prompt_tokens: 900, completion_tokens: cut ? (body.max_tokens ?? 16) : 30 },
    });
  });
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs the sample's first documents through one openai system named `vision` into `out`. */
async function run(
  out: string,
  options: Record<string, unknown> = {},
  extra: { args?: string[]; gate?: unknown } = {},
) {
  requests = [];
  images = new Map();
  const config = path.join(dir, `${out}.yaml`);
  await writeFile(
    config,
    stringify({
      endpoints: ['extract'],
      modes: ['slow'],
      systems: { vision: { kind: 'openai', baseUrl: server.url, model: 'vision-mini', concurrency: 1, ...options } },
      ...(extra.gate ? { gate: extra.gate } : {}),
    }),
  );
  const result = await runCli(
    [
      'run',
      '--config',
      config,
      '--dataset',
      'dataset',
      '--out',
      out,
      '--limit',
      String(DOCUMENTS),
      '--no-cache',
      ...(extra.args ?? []),
    ],
    dir,
  );
  const runDir = path.join(dir, out);
  return { result, runDir, manifest: await readJson(path.join(runDir, 'run.json')) };
}

describe('what an openai system reported, through docbench run and diff', () => {
  it('keeps snapshot and fingerprint in each run.json; diff names both snapshots first', async () => {
    behaviour.snapshot = () => 'vision-mini-2024-07-18';
    behaviour.fingerprint = 'fp_44709d6fcb';
    const before = await run('before');
    expect(before.result.code, before.result.stderr).toBe(0);
    behaviour.snapshot = () => 'vision-mini-2025-04-14';
    behaviour.fingerprint = 'fp_b376dfbbd5';
    const after = await run('after');
    expect(after.result.code, after.result.stderr).toBe(0);

    expect(before.manifest.systems[0].reported).toEqual({
      model: { 'vision-mini-2024-07-18': DOCUMENTS },
      system_fingerprint: { fp_44709d6fcb: DOCUMENTS },
    });
    expect(after.manifest.systems[0].reported).toEqual({
      model: { 'vision-mini-2025-04-14': DOCUMENTS },
      system_fingerprint: { fp_b376dfbbd5: DOCUMENTS },
    });
    for (const record of await readJsonl(path.join(after.runDir, 'results.jsonl')))
      expect(record.reported).toEqual({ model: 'vision-mini-2025-04-14', system_fingerprint: 'fp_b376dfbbd5' });

    const diff = await runCli(['diff', 'before', 'after', '--out', 'diff'], dir);
    expect(diff.code, diff.stderr).toBeLessThan(2);
    const markdown = await readFile(path.join(dir, 'diff', 'diff.md'), 'utf8');
    const changed = markdown.indexOf('## What changed besides the figures');
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(markdown.search(/\*\*(✅|❌)/));
    expect(changed).toBeLessThan(markdown.indexOf('## Headline metrics'));
    const rows = markdown.slice(changed).split('\n').slice(4);
    expect(rows[0]).toBe(
      `| vision: reported model | vision-mini-2024-07-18 (${DOCUMENTS}) | vision-mini-2025-04-14 (${DOCUMENTS}) |`,
    );
    expect(rows[1]).toMatch(/^\| vision: reported system\\?_fingerprint \| fp\\?_44709d6fcb /);
    const json = await readJson(path.join(dir, 'diff', 'diff.json'));
    expect(json.provenance.slice(0, 2)).toEqual([
      {
        what: 'vision: reported model',
        baseline: `vision-mini-2024-07-18 (${DOCUMENTS})`,
        candidate: `vision-mini-2025-04-14 (${DOCUMENTS})`,
      },
      {
        what: 'vision: reported system_fingerprint',
        baseline: `fp_44709d6fcb (${DOCUMENTS})`,
        candidate: `fp_b376dfbbd5 (${DOCUMENTS})`,
      },
    ]);
    const html = await readFile(path.join(dir, 'diff', 'diff.html'), 'utf8');
    expect(html.indexOf('vision-mini-2025-04-14')).toBeGreaterThan(0);
    expect(html.indexOf('vision-mini-2025-04-14')).toBeLessThan(html.indexOf('id="headline"'));
    expect(diff.stdout + diff.stderr).toContain(
      `changed: vision: reported model: vision-mini-2024-07-18 (${DOCUMENTS}) → vision-mini-2025-04-14 (${DOCUMENTS})`,
    );
  }, 240_000);

  it('warns when the snapshot changes within a run, and marks it in the report', async () => {
    behaviour.snapshot = (n) => (n === 1 ? 'vision-mini-2024-07-18' : 'vision-mini-2025-04-14');
    const { result, runDir, manifest } = await run('mixed');
    expect(result.code, result.stderr).toBe(0);
    expect(manifest.systems[0].reported.model).toEqual({
      'vision-mini-2024-07-18': 1,
      'vision-mini-2025-04-14': DOCUMENTS - 1,
    });
    expect(result.stderr).toContain('system vision reported more than one model within the run');
    const html = await readFile(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('id="systems-table"');
    expect(html).toContain('vision reported more than one model within the run');
    const summary = await readFile(path.join(runDir, 'summary.md'), 'utf8');
    expect(summary).toContain('⚠️ changed');
  }, 240_000);

  it('an answer cut short at max_tokens is a failed call of its own class, not retried, counted apart', async () => {
    behaviour.snapshot = () => 'vision-mini-2024-07-18';
    behaviour.truncate = (n) => n === 2;
    const { result, runDir } = await run('truncated', { maxTokens: 64 });
    expect(result.code, result.stderr).toBe(0);
    // One request per document: the cut answer was not asked again.
    expect(requests).toHaveLength(DOCUMENTS);
    expect(requests.every((r) => r.maxTokens === 64)).toBe(true);
    const records = await readJsonl(path.join(runDir, 'results.jsonl'));
    const failed = records.filter((r) => r.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.attempts).toBe(1);
    expect(failed[0]!.error).toMatchObject({ code: 'SERVICE_OUTPUT_TRUNCATED', retryable: false, status: 200 });
    expect(failed[0]!.error.message).toContain('max_tokens 64');
    expect(failed[0]!.reported).toEqual({ model: 'vision-mini-2024-07-18', system_fingerprint: 'fp_b376dfbbd5' });

    const summary = await readJson(path.join(runDir, 'summary.json'));
    expect(summary.systems.vision.calls['extract:slow']).toMatchObject({ calls: DOCUMENTS, failed: 1, truncated: 1 });
    const html = await readFile(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('<code>SERVICE_OUTPUT_TRUNCATED</code> × 1 — answers cut short at the token limit');
    expect(html).toContain('raise systems.vision.maxTokens');
    const markdown = await readFile(path.join(runDir, 'summary.md'), 'utf8');
    expect(markdown).toContain('SERVICE\\_OUTPUT\\_TRUNCATED ×1');
    expect(markdown).toMatch(/\| vision \| openai \| .* \| 1 \| — \|/);
  }, 240_000);

  it('with retryMaxTokens, an answer cut short is asked once more with that limit', async () => {
    behaviour.truncate = (_n, maxTokens) => (maxTokens ?? 0) < 1000;
    const { result, runDir } = await run('raised', { maxTokens: 64, retryMaxTokens: 4096 });
    expect(result.code, result.stderr).toBe(0);
    expect(requests.map((r) => r.maxTokens)).toEqual(Array.from({ length: DOCUMENTS }, () => [64, 4096]).flat());
    const records = await readJsonl(path.join(runDir, 'results.jsonl'));
    expect(records.every((r) => r.status === 'ok')).toBe(true);
    // Both answers' tokens are the call's.
    expect(records[0]!.usage.output_tokens).toBe(64 + 30);
    behaviour.truncate = () => false;
  }, 240_000);

  it('with --repeat, counts the documents whose repetitions differ, pass^N beside the first, the flakiest field, and gates on it', async () => {
    // The first page image the server sees gets another total on every second request: one document of three is
    // flaky, in billing_summary.total_charges only; the others get the same answer every time.
    behaviour.answer = (page, seen) => (page === 1 && seen % 2 === 0 ? ANSWER.replace('125', '126') : ANSWER);
    const { result, runDir } = await run(
      'repeated',
      {},
      { args: ['--repeat', '3'], gate: { systems: { vision: { max_flaky_documents: 0.2 } } } },
    );
    behaviour.answer = () => ANSWER;
    expect(requests).toHaveLength(DOCUMENTS * 3);
    // The gate fails on the flaky share (exit 1), whatever else it checks.
    expect(result.code, result.stderr).toBe(1);
    const summary = await readJson(path.join(runDir, 'summary.json'));
    const agreement = summary.systems.vision.repeat.agreement;
    expect(agreement).toMatchObject({ documents: DOCUMENTS, flaky_documents: 1 });
    expect(agreement.flaky_share).toBeCloseTo(1 / DOCUMENTS, 10);
    expect(agreement.extraction.slow).toMatchObject({
      documents: DOCUMENTS,
      flaky_documents: 1,
      flakiest_fields: [{ path: 'billing_summary.total_charges', documents: 1 }],
    });
    const gate = await readJson(path.join(runDir, 'gate.json'));
    const flaky = gate.checks.find((c: { metric: string }) => c.metric === 'repeat.flaky_share');
    expect(flaky).toMatchObject({ passed: false, threshold: 0.2 });
    expect(flaky.actual).toBeCloseTo(1 / DOCUMENTS, 10);
    const html = await readFile(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('3 repeats: 1 of 3 documents differ');
    expect(html).toContain('flakiest fields billing_summary.total_charges (1)');
  }, 240_000);
});
