/**
 * A cloud kind end to end through `docbench run` (run → score → report): `azure-di` against a fake
 * Document Intelligence resource (wire format as in azure-di.test.ts) that answers every document of the
 * sample dataset with its own truth — markdown as the analyze result's content, the truth regions as lines.
 * The independent expectation is therefore exact: markdown similarity 1, and cost = price × pages.
 */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../../helpers/cli.js';
import type { TestServer } from '../../helpers/http-server.js';
import { startAzureFake } from './azure-fake.js';

const KEY = 'azure-e2e-key-0123456789';
let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docbench-providers-e2e-'));
  const dataset = path.join(dir, 'dataset');
  await cp(path.join(ROOT, 'datasets', 'sample-claims'), dataset, { recursive: true });
  server = await startAzureFake(dataset, KEY);
  await writeFile(
    path.join(dir, 'docbench.config.yaml'),
    `systems:\n  azure: { kind: azure-di, endpoint: "${server.url}", apiKeyEnv: TEST_AZURE_KEY, price: { perPage: 0.01 } }\nendpoints: [compare, split]\n`,
  );
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('azure-di through docbench run', () => {
  it('runs, scores and reports the provider; its markdown equals the truth it was given, cost is price × pages, no key anywhere', async () => {
    const out = path.join(dir, 'run');
    const result = await runCli(['run', '--dataset', path.join(dir, 'dataset'), '--out', out], dir, {
      TEST_AZURE_KEY: KEY,
    });
    expect(result.code, result.stderr).toBe(0);
    const records = (await readFile(path.join(out, 'results.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            system: string;
            endpoint: string;
            status: string;
            cost_usd?: number;
            usage?: { pages?: number };
            raw?: unknown;
          },
      );
    const azure = records.filter((r) => r.system === 'azure');
    expect(azure).toHaveLength(72);
    expect(azure.every((r) => r.status === 'ok')).toBe(true);
    for (const record of azure) expect(record.cost_usd).toBeCloseTo(0.01 * record.usage!.pages!, 10);
    expect(azure.every((r) => r.raw !== undefined)).toBe(true);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as {
      systems: Record<string, { markdown: { similarity: number; failed: number }; cost?: { total_usd: number } }>;
    };
    expect(summary.systems.azure!.markdown.similarity).toBe(1);
    expect(summary.systems.azure!.markdown.failed).toBe(0);
    expect(summary.systems.azure!.cost!.total_usd).toBeCloseTo(
      azure.reduce((sum, r) => sum + r.cost_usd!, 0),
      10,
    );
    for (const file of await readdir(out)) {
      if (file.includes('.')) expect(await readFile(path.join(out, file), 'utf8'), file).not.toContain(KEY);
    }
    await expect(readFile(path.join(out, 'report.html'), 'utf8')).resolves.toContain('<html');
  }, 240_000);
});
