/**
 * Adding a rule check from the review (docs/view.md, "Adding a rule check"): the view server on a copy of the
 * sample dataset appends an olmOCR-bench line to checks.jsonl that `docbench dataset validate` accepts, logs it
 * in truth-changes.jsonl, refuses a stale ETag (412) and an invalid check (400 naming the field), writing
 * nothing then.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { buildManifest } from '../report/run-fixture.js';

let tmp: string;
let datasetDir: string;
let server: ViewServer;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-view-checks-'));
  datasetDir = path.join(tmp, 'datasets', 'sample-claims');
  await cp(path.join(ROOT, 'datasets/sample-claims'), datasetDir, { recursive: true });
  await mkdir(path.join(tmp, 'reports', 'r1'), { recursive: true });
  // The review opens a run by its run.json (which names the dataset); adding a check reads nothing else of it.
  await writeFile(path.join(tmp, 'reports', 'r1', 'run.json'), JSON.stringify(buildManifest(3)));
  server = await startViewServer({ reportsDir: path.join(tmp, 'reports'), cwd: tmp });
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

function api(method: string, body?: unknown, etag?: string): Promise<Response> {
  const headers: Record<string, string> = { 'x-docbench-token': server.token, 'content-type': 'application/json' };
  if (etag !== undefined) headers['if-match'] = etag;
  return fetch(`${server.baseUrl}/api/runs/r1/checks`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function currentEtag(): Promise<string> {
  const response = await api('GET');
  expect(response.status).toBe(200);
  return ((await response.json()) as { etag: string }).etag;
}

const lines = async (name: string): Promise<Record<string, unknown>[]> =>
  existsSync(path.join(datasetDir, name))
    ? (await readFile(path.join(datasetDir, name), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];

describe('adding a rule check from the review', () => {
  it('appends verified present and order checks, logs each, and the dataset still validates', async () => {
    const present = await api(
      'POST',
      {
        document: 'bill-002',
        page: 1,
        type: 'present',
        text: 'Amount due',
        source: 'local (fast)',
        note: 'on the scan',
      },
      await currentEtag(),
    );
    expect(present.status).toBe(200);
    const first = (await present.json()) as { change: { check: string }; etag: string };
    expect(present.headers.get('etag')).toBe(first.etag);
    const order = await api(
      'POST',
      { document: 'bill-005', page: 1, type: 'order', before: 'Patient', after: 'Total', category: 'layout' },
      first.etag,
    );
    expect(order.status).toBe(200);

    const checks = await lines('checks.jsonl');
    expect(checks).toHaveLength(2);
    expect(checks[0]).toEqual({
      pdf: 'bill-002.pdf',
      page: 1,
      id: first.change.check,
      type: 'present',
      text: 'Amount due',
      max_diffs: 0,
      checked: 'verified',
    });
    expect(checks[1]).toMatchObject({
      pdf: 'bill-005.png',
      type: 'order',
      before: 'Patient',
      after: 'Total',
      category: 'layout',
      max_diffs: 0,
      checked: 'verified',
    });
    expect(checks[0]!.id).not.toBe(checks[1]!.id);

    const changes = await lines('truth-changes.jsonl');
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({
      document: 'bill-002',
      check: first.change.check,
      page: 1,
      old: null,
      new: checks[0],
      source: 'local (fast)',
      note: 'on the scan',
      run: 'r1',
    });
    expect(Number.isNaN(Date.parse(changes[0]!.time as string))).toBe(false);
    expect(changes[1]).toMatchObject({ document: 'bill-005', source: 'truth', new: checks[1] });

    const validated = await runCli(['dataset', 'validate', datasetDir], tmp);
    expect(validated.stderr + validated.stdout).not.toMatch(/checks\.jsonl/);
    expect(validated.code).toBe(0);
  }, 60_000);

  it('refuses a stale ETag and an invalid check, naming the field, and writes nothing', async () => {
    const before = await readFile(path.join(datasetDir, 'checks.jsonl'), 'utf8');
    const changes = (await lines('truth-changes.jsonl')).length;
    const stale = await api('POST', { document: 'bill-002', page: 1, type: 'absent', text: 'x' }, '"stale"');
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as { etag: string }).etag).toBe(await currentEtag());

    const etag = await currentEtag();
    const refusals: [Record<string, unknown>, string][] = [
      [{ document: 'bill-002', page: 1, type: 'present', text: '   ' }, 'text'],
      [{ document: 'bill-002', page: 1, type: 'order', before: 'Patient' }, 'after'],
      [{ document: 'bill-002', page: 1, type: 'table', text: 'x' }, 'type'],
      [{ document: 'bill-002', page: 1, type: 'absent', text: 'x', category: 7 }, 'category'],
      [{ document: 'bill-002', page: 99, type: 'absent', text: 'x' }, 'page'],
    ];
    for (const [body, field] of refusals) {
      const response = await api('POST', body, etag);
      const answer = (await response.json()) as { message: string; subject?: string };
      expect(response.status, field).toBe(400);
      expect(answer.subject).toBe(field);
      expect(answer.message).toContain(`"${field}"`);
    }
    expect((await api('POST', { document: 'nope', page: 1, type: 'absent', text: 'x' }, etag)).status).toBe(404);
    expect((await api('POST', { document: 'bill-002', page: 1, type: 'absent', text: 'x' })).status).toBe(428);
    expect(await readFile(path.join(datasetDir, 'checks.jsonl'), 'utf8')).toBe(before);
    expect(await lines('truth-changes.jsonl')).toHaveLength(changes);
  });
});
