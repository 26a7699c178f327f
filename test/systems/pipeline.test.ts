/**
 * Pipelines (docs/systems.md, "pipeline") and misses attributed to reading or extraction
 * (docs/metrics/extraction.md): a stored reader whose markdown lost some values and garbled others, a command
 * extractor that reads the markdown it is given, the truth-text ceiling, and the figures a hand computation gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { writeTinyDataset, type TinyDocument } from '../helpers/tiny-dataset.js';
import { readJson, readJsonl, runCli } from '../helpers/cli.js';

/** Reads "Patient: …", "Total: <digits>" and a CPT/Units pipe table from the markdown file it is given. */
const EXTRACTOR = `import { readFileSync } from 'node:fs';
const [markdownFile] = process.argv.slice(2);
if (markdownFile !== process.env.DOCBENCH_MARKDOWN) { process.stderr.write('placeholder and variable differ'); process.exit(3); }
const text = readFileSync(markdownFile, 'utf8');
const response = {};
const name = /^Patient:\\s*(.+)$/m.exec(text);
if (name) response.name = name[1].trim();
const total = /^Total:\\s*([\\d.]+)/m.exec(text);
if (total) response.total = Number(total[1]);
const codes = [...text.matchAll(/^\\|\\s*(\\d{5})\\s*\\|\\s*(\\d+)\\s*\\|$/gm)].map((m) => ({ cpt: m[1], units: Number(m[2]) }));
if (codes.length > 0) response.codes = codes;
process.stdout.write(JSON.stringify({ response }));
`;

const table = (cpt: string, units: number) => `| CPT | Units |\n|---|---|\n| ${cpt} | ${units} |`;
const claim = (name: string, total: string, rows: string) =>
  `# Claim\n\nPatient: ${name}\n\nTotal: ${total}\n\n${rows}`;

const DOCUMENTS: TinyDocument[] = [
  {
    id: 'doc-001',
    data: { name: 'Ann Lee', total: 120.5, codes: [{ cpt: '99213', units: 2 }] },
    markdown: claim('Ann Lee', '120.50', table('99213', 2)),
  },
  {
    id: 'doc-002',
    data: { name: 'Bob Roe', total: 75, codes: [{ cpt: '99214', units: 1 }] },
    markdown: claim('Bob Roe', '75', table('99214', 1)),
  },
  {
    id: 'doc-003',
    data: { name: 'Cy Poe', total: 310, codes: [{ cpt: '71045', units: 3 }] },
    markdown: claim('Cy Poe', '310', table('71045', 3)),
  },
];

/** The reader's markdown: doc-001 read right; doc-002's label and total garbled; doc-003's table lost. */
const READ: Record<string, string> = {
  'doc-001': DOCUMENTS[0]!.markdown,
  'doc-002': `# Claim\n\nPatient - Bob Roe\n\nTotal: 7S\n\n${table('99214', 1)}`,
  'doc-003': '# Claim\n\nPatient: Cy Poe\n\nTotal: 310',
};

let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-pipeline-'));
  const dataset = await writeTinyDataset(path.join(work, 'data'), DOCUMENTS);
  const outputs = path.join(dataset, 'outputs', 'scanner');
  await mkdir(outputs, { recursive: true });
  for (const [id, markdown] of Object.entries(READ)) {
    await writeFile(path.join(outputs, `${id}.md`), markdown);
    await writeFile(path.join(outputs, `${id}.meta.json`), JSON.stringify({ latency_ms: 500, cost_usd: 0.002 }));
  }
  await writeFile(path.join(work, 'extract.mjs'), EXTRACTOR);
  const extract = { kind: 'command', command: ['node', 'extract.mjs', '{markdown}'] };
  await writeFile(
    path.join(work, 'docbench.config.yaml'),
    stringify({
      cacheDir: 'cache',
      systems: {
        scanner: { kind: 'stored', price: { perPage: 0.001 } },
        ceiling: { kind: 'pipeline', read: 'truth', extract, price: { perCall: 0.01 } },
        chained: { kind: 'pipeline', read: 'scanner', extract, price: { perCall: 0.01 } },
      },
      reference: 'ceiling',
    }),
  );
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('pipelines', () => {
  it('scores the ceiling, the chained pipeline and the attribution of its misses as a hand computation does', {
    timeout: 60_000,
  }, async () => {
    const result = await runCli(['run', '--dataset', 'data', '--out', 'run', '--quiet'], work);
    expect(result.code, result.stderr).toBe(0);
    const summary = await readJson(path.join(work, 'run', 'summary.json'));
    // Truth text: every field of the three documents read (4 leaves each).
    expect(summary.systems.ceiling.extraction.slow).toMatchObject({ tp: 12, fp: 0, fn: 0, f1: 1 });
    expect(summary.systems.ceiling.extraction.slow.misses).toEqual({ not_in_text: 0, in_text: 0 });
    // doc-001: 4 TP. doc-002: name missed though "Bob Roe" is on the page (in_text), total read as 7 from
    // "7S" (fp+fn; 75 is not in the text), codes right. doc-003: name and total right, the table's two
    // leaves missed and not in the text.
    const chained = summary.systems.chained.extraction.slow;
    expect(chained).toMatchObject({ tp: 8, fp: 1, fn: 4 });
    expect(chained.f1).toBeCloseTo(16 / 21, 12);
    expect(chained.misses).toEqual({ not_in_text: 3, in_text: 1 });
    const fields = Object.fromEntries(summary.systems.chained.fields.map((f: Record<string, unknown>) => [f.path, f]));
    expect(fields.name).toMatchObject({ fn: 1, not_in_text: 0, in_text: 1 });
    expect(fields.total).toMatchObject({ fn: 1, not_in_text: 1, in_text: 0 });
    expect(fields['codes[].cpt']).toMatchObject({ fn: 1, not_in_text: 1, in_text: 0 });
    // The stored reader gave markdown only: nothing is claimed about extraction.
    expect(summary.systems.scanner.extraction).toEqual({});

    // The compare output is the reader's markdown; cost and latency are the reader's plus the extractor's.
    const records = await readJsonl(path.join(work, 'run', 'results.jsonl'));
    const record = (system: string, id: string, endpoint: string) =>
      records.find((r) => r.system === system && r.document_id === id && r.endpoint === endpoint)!;
    expect(record('chained', 'doc-002', 'compare').result.pages[0].content).toBe(READ['doc-002']);
    expect(record('ceiling', 'doc-003', 'compare').result.pages[0].content).toBe(DOCUMENTS[2]!.markdown);
    // The reader's answer is paid once per document, on whichever of the pipeline's calls came first.
    const documentCost = (system: string, id: string) =>
      (record(system, id, 'extract').cost_usd ?? 0) + (record(system, id, 'compare').cost_usd ?? 0);
    expect(documentCost('chained', 'doc-002')).toBeCloseTo(0.012, 12);
    expect(documentCost('ceiling', 'doc-002')).toBeCloseTo(0.01, 12);
    expect(summary.systems.chained.cost.per_document_usd).toBeCloseTo(0.012, 12);
    expect(record('chained', 'doc-002', 'extract').latency_ms).toBeGreaterThanOrEqual(500);

    // documents.jsonl marks each miss, and where an in_text value is.
    const documents = await readJsonl(path.join(work, 'run', 'documents.jsonl'));
    const doc2 = documents.find((d) => d.document_id === 'doc-002')!.systems.chained.extraction.slow;
    expect(doc2.misses).toEqual({ not_in_text: 1, in_text: 1 });
    const name = doc2.fields.find((f: Record<string, unknown>) => f.path === 'name');
    expect(name.miss).toBe('in_text');
    expect(READ['doc-002']!.slice(name.text_match.start, name.text_match.end)).toBe('Bob Roe');
    const csv = await import('node:fs/promises').then((fs) =>
      fs.readFile(path.join(work, 'run', 'fields.csv'), 'utf8'),
    );
    expect(csv.split('\n')[0]).toContain(',not_in_text,in_text');
    // summary.md says the same of the chained pipeline's four misses.
    const markdown = await import('node:fs/promises').then((fs) =>
      fs.readFile(path.join(work, 'run', 'summary.md'), 'utf8'),
    );
    expect(markdown).toContain('## Reading or extraction: whose fault is a miss?');
    expect(markdown).toContain(
      '| chained | slow | 4 | 3 (75%) | 1 (25%) | mostly reading: the values were not in its text |',
    );
  });

  it("docbench plan counts a pipeline's calls and cost, its reader's calls when the run does not make them", async () => {
    const both = await runCli(
      ['plan', '--dataset', 'data', '--systems', 'scanner,chained', '--reference', 'scanner'],
      work,
    );
    expect(both.code, both.stderr).toBe(0);
    const line = (output: string) => output.split('\n').find((l) => l.trim().startsWith('chained (pipeline)'))!;
    // Shared with the run's scanner: no calls of its own; the extractor's 3 × $0.01 and the reader's 3 pages.
    expect(line(both.stdout + both.stderr)).toContain('6 calls [extract:slow 3, compare 3]');
    expect(line(both.stdout + both.stderr)).toContain('$0.0330');
    const alone = await runCli(['plan', '--dataset', 'data', '--systems', 'chained', '--reference', 'chained'], work);
    expect(alone.code, alone.stderr).toBe(0);
    expect(line(alone.stdout + alone.stderr)).toContain('9 calls [extract:slow 3, compare 3, read:scanner 3]');
    expect(line(alone.stdout + alone.stderr)).toContain('$0.0330');
  });

  it('refuses a reader that is unknown, the pipeline itself, a cycle, or an extractor that cannot take text', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { p: { kind: 'pipeline', read: 'nobody', extract: { kind: 'local' } } },
        'systems.p.read: "nobody" is not a system',
      ],
      [{ p: { kind: 'pipeline', read: 'p', extract: { kind: 'local' } } }, 'systems.p.read: names the pipeline itself'],
      [
        {
          a: { kind: 'pipeline', read: 'b', extract: { kind: 'local' } },
          b: { kind: 'pipeline', read: 'a', extract: { kind: 'local' } },
        },
        'systems.a.read: pipelines read in a cycle: a → b → a',
      ],
      [
        { p: { kind: 'pipeline', read: 'truth', extract: { kind: 'textract' } } },
        'systems.p.extract.kind: "textract" cannot take text',
      ],
      [
        {
          p: { kind: 'pipeline', read: 'truth', extract: { kind: 'command', command: ['node', 'x.mjs'], model: 'm' } },
        },
        'systems.p.extract.model: unknown setting',
      ],
    ];
    for (const [systems, message] of cases) {
      const dir = await mkdtemp(path.join(work, 'bad-'));
      await writeFile(path.join(dir, 'docbench.config.yaml'), stringify({ systems }));
      const result = await runCli(['run', '--dataset', path.join(work, 'data'), '--out', 'run', '--quiet'], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      // Refused before anything was called or written.
      await expect(import('node:fs/promises').then((fs) => fs.stat(path.join(dir, 'run')))).rejects.toThrow();
    }
  });
});
