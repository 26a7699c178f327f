/**
 * Systems side by side change nothing about each system's answers: in a three-system run, the live system's
 * records and the incumbent's equal those of the single-system run on the same responses, and the scores of
 * the single-system run (summary.json) are unchanged. The incumbent's records hold exactly the dataset's
 * baseline files, read by the dataset's own readers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { loadDataset, readMarkdownPages } from '../../src/dataset/index.js';
import { silentLogger } from '../../src/logger.js';
import { startFakeService, type FakeService } from '../helpers/fake-service.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';
import { comparableDocuments, comparableSummary, ROOT, readJsonl, runCli } from '../helpers/cli.js';

let work: string;
let tiny: string;
let service: FakeService;

const READER = `import { readFileSync } from 'node:fs';
const bytes = readFileSync(process.argv[3]);
process.stdout.write(process.argv[2] === 'compare' ? '# ' + bytes.length : JSON.stringify({ response: { size: bytes.length } }));
`;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-equivalence-'));
  tiny = await writeTinyDataset(path.join(work, 'tiny'), tinyDocuments(6));
  await writeFile(path.join(work, 'reader.mjs'), READER);
  service = await startFakeService();
});

afterAll(async () => {
  await service?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A directory holding `systems` as its config file (or no config file). */
async function dirWith(name: string, systems?: Record<string, unknown>): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'docbench.config.yaml'),
    stringify({ cacheDir: 'cache', ...(systems ? { systems } : {}) }),
  );
  return dir;
}

/** The records of one system, keyed without the system, without timing. */
async function recordsOf(runDir: string, system: string): Promise<Record<string, unknown>[]> {
  const records = (await readJsonl(path.join(runDir, 'results.jsonl'))).filter((r) => r.system === system);
  return records
    .map(({ started_at: _s, latency_ms: _l, last_attempt_ms: _a, system: _n, key, ...rest }) => ({
      key: String(key).slice(system.length + 1),
      ...rest,
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

const reader = { kind: 'command', command: ['node', '../reader.mjs', '{operation}', '{file}'] };

describe('three systems vs one', () => {
  it('--base-url alone: the service and the incumbent; configured as three systems, the same records and the same scores', async () => {
    const single = await dirWith('single');
    const one = await runCli(
      ['run', '--dataset', tiny, '--base-url', service.baseUrl, '--out', 'run', '--no-cache', '--quiet'],
      single,
    );
    expect(one.code, one.stderr).toBe(0);
    const multi = await dirWith('multi', {
      candidate: { kind: 'interface', baseUrl: service.baseUrl },
      reader,
      incumbent: { kind: 'stored' },
    });
    const three = await runCli(['run', '--dataset', tiny, '--out', 'run', '--no-cache', '--quiet'], multi);
    expect(three.code, three.stderr).toBe(0);

    const serviceRecords = await recordsOf(path.join(single, 'run'), 'service');
    expect(serviceRecords).toHaveLength(12);
    expect(await recordsOf(path.join(multi, 'run'), 'candidate')).toEqual(serviceRecords);
    const incumbent = await recordsOf(path.join(single, 'run'), 'incumbent');
    expect(incumbent).toHaveLength(6);
    expect(await recordsOf(path.join(multi, 'run'), 'incumbent')).toEqual(incumbent);
    expect(await recordsOf(path.join(multi, 'run'), 'reader')).toHaveLength(12);
    // Scored as before: the live system, and the incumbent from its baseline files.
    // The same system under another name, beside one more system: its own figures and document scores are
    // those of the single-system run (the comparisons differ, as the run has a third system).
    const [multiSummary, singleSummary] = [
      await comparableSummary(path.join(multi, 'run')),
      await comparableSummary(path.join(single, 'run')),
    ];
    const [multiDocuments, singleDocuments] = [
      await comparableDocuments(path.join(multi, 'run')),
      await comparableDocuments(path.join(single, 'run')),
    ];
    for (const [inMulti, inSingle] of [
      ['candidate', 'service'],
      ['incumbent', 'incumbent'],
    ] as const) {
      expect(systemOf(multiSummary, inMulti)).toEqual(systemOf(singleSummary, inSingle));
      expect(multiDocuments.map((d) => systemOf(d, inMulti))).toEqual(
        singleDocuments.map((d) => systemOf(d, inSingle)),
      );
    }

    // The incumbent's records are the baseline files, read by the dataset's readers.
    const dataset = await loadDataset(tiny, { logger: silentLogger });
    for (const document of dataset.documents) {
      const record = incumbent.find((r) => r.document_id === document.id)!;
      expect(record).toMatchObject({ endpoint: 'compare', status: 'ok', attempts: 0, from_cache: false });
      expect((record.result as { pages: { content: string }[] }).pages.map((p) => p.content)).toEqual(
        await readMarkdownPages(document.baseline.markdown!),
      );
    }
  });

  it('the local engine answers the same alone and beside two other systems', { timeout: 300_000 }, async () => {
    const sample = path.join(ROOT, 'datasets', 'sample-claims');
    const selection = [
      '--filter',
      'tier=digital',
      '--limit',
      '2',
      '--endpoints',
      'compare,extract',
      '--no-cache',
      '--quiet',
    ];
    const alone = await dirWith('local-alone');
    const one = await runCli(['run', '--dataset', sample, '--systems', 'local', '--out', 'run', ...selection], alone);
    expect(one.code, one.stderr).toBe(0);
    const beside = await dirWith('local-beside', { local: { kind: 'local' }, reader, incumbent: { kind: 'stored' } });
    const three = await runCli(['run', '--dataset', sample, '--out', 'run', ...selection], beside);
    expect(three.code, three.stderr).toBe(0);

    const local = await recordsOf(path.join(alone, 'run'), 'local');
    expect(local).toHaveLength(4);
    expect(local.every((r) => r.status === 'ok')).toBe(true);
    // Each /compare of the local engine stores a comparison under a fresh id, quoted in its dashboard URL.
    const withoutUrls = (records: Record<string, unknown>[]) =>
      records.map((record) => {
        const { comparisonId: _c, dashboardUrl: _d, ...result } = record.result as Record<string, unknown>;
        return { ...record, result };
      });
    expect(withoutUrls(await recordsOf(path.join(beside, 'run'), 'local'))).toEqual(withoutUrls(local));
    const manifest = JSON.parse(await readFile(path.join(beside, 'run', 'run.json'), 'utf8'));
    expect(manifest.systems.map((s: { name: string; kind: string }) => `${s.name}:${s.kind}`)).toEqual([
      'local:local',
      'reader:command',
      'incumbent:stored',
    ]);
    expect(manifest.reference).toBe('incumbent');
  });
});

/** One system's block of a summary or a documents.jsonl line (both keep them under `systems`). */
function systemOf(value: unknown, name: string): unknown {
  const block = (value as { systems: Record<string, unknown> }).systems[name];
  expect(block, `system ${name}`).toBeDefined();
  return block;
}
