/**
 * The sample's leaderboard compares like with like: the stored incumbent has JSON for 15 of the 36 documents,
 * so field F1 is ranked on those 15 for every system, with each system's own figure on all its documents
 * beside it and the incumbent marked — in summary.json, report.html, summary.md and the terminal. The
 * other system reads the truth back (a command system, in place of the slow local engine), so the figures
 * are known: F1 1 on every document it answers.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { RunSummary } from '../../src/run-dir/evaluation-types.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLE = path.join(ROOT, 'datasets/sample-claims');

let tmp: string;
let runDir: string;
let stdout = '';
let summary: RunSummary;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docbench-sample-board-'));
  runDir = path.join(tmp, 'run');
  await writeFile(
    path.join(tmp, 'oracle.mjs'),
    `import { readFileSync } from 'node:fs';\nconst truth = JSON.parse(readFileSync(${JSON.stringify(path.join(SAMPLE, 'truth'))} + '/' + process.argv[2] + '.json', 'utf8'));\nprocess.stdout.write(JSON.stringify({ response: truth }));\n`,
  );
  await writeFile(
    path.join(tmp, 'docbench.config.yaml'),
    'systems:\n  oracle:\n    kind: command\n    command: [node, oracle.mjs, "{id}"]\n    operations: [extract]\n    concurrency: 2\n  incumbent:\n    kind: stored\nreference: incumbent\n',
  );
  const sink = (append: (s: string) => void) =>
    ({
      write: (chunk: string) => {
        append(String(chunk));
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  let stderr = '';
  const code = await main(
    [
      'run',
      '--dataset',
      SAMPLE,
      '--config',
      'docbench.config.yaml',
      '--out',
      runDir,
      '--modes',
      'slow',
      '--endpoints',
      'extract',
      '--no-cache',
    ],
    {
      cwd: tmp,
      env: { PATH: process.env.PATH },
      stdout: sink((s) => (stdout += s)),
      stderr: sink((s) => (stderr += s)),
    },
  );
  if (code !== 0) throw new Error(`docbench run exited ${code}: ${stderr}`);
  summary = JSON.parse(await readFile(path.join(runDir, 'summary.json'), 'utf8')) as RunSummary;
}, 180_000);
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The field F1 block: the metric the incumbent's JSON covers. */
function board(): RunSummary['leaderboard'][number] {
  return summary.leaderboard.find((b) => b.metric === 'extraction.slow.f1')!;
}

describe("the sample's leaderboard", () => {
  it('ranks both systems on the 15 documents both were scored on, with each own figure beside it', () => {
    expect(board().shared_documents).toBe(15);
    const rows = new Map(board().rows.map((r) => [r.system, r]));
    expect(rows.get('oracle')).toMatchObject({
      rank: 1,
      documents: 36,
      covers_fewer: false,
      shared: { value: 1, documents: 15 },
    });
    expect(rows.get('incumbent')).toMatchObject({
      rank: 2,
      documents: 15,
      covers_fewer: true,
      shared: { documents: 15 },
    });
    // On its own 15 documents the incumbent's own figure is its shared figure.
    expect(rows.get('incumbent')!.shared!.value).toBe(rows.get('incumbent')!.value);
  });

  it('says so in the terminal, summary.md and report.html', async () => {
    const incumbent = board().rows.find((r) => r.system === 'incumbent')!;
    const own = `${(incumbent.value * 100).toFixed(1)}% on 15`;
    expect(stdout).toContain(
      'leaderboard: field F1 (slow), ranked on the 15 documents every system was scored on (of 36)',
    );
    expect(stdout).toMatch(/1 {2}oracle +100\.0% .*all its documents: 100\.0% on 36/);
    expect(stdout).toMatch(
      new RegExp(
        `2 {2}incumbent \\(reference\\) .*all its documents: ${own.replace('.', '\\.')} +\\(scored on 15 of 36 documents\\)`,
      ),
    );
    const md = await readFile(path.join(runDir, 'summary.md'), 'utf8');
    expect(md).toContain('Ranked on the 15 documents every system was scored on (of 36)');
    expect(md).toMatch(/\| 1 \| oracle \(primary\) \| 100\.0% \| [^|]+ \| 15 \| 100\.0% on 36 \|/);
    expect(md).toMatch(/\| 2 \| incumbent \(reference\) ⚠️ scored on 15 of 36 documents \| [^|]+ \| [^|]+ \| 15 \|/);
    const html = await readFile(path.join(runDir, 'report.html'), 'utf8');
    const table = /<table class="leaderboard" data-metric="extraction\.slow\.f1">[\s\S]*?<\/table>/.exec(html)![0];
    expect(table).toMatch(
      /<tr><td class="num">1<\/td>.*?oracle.*?<td class="num">100\.0%<\/td>.*?<td class="num">15<\/td><td class="num">100\.0% on 36<\/td>/,
    );
    expect(table).toMatch(
      /<tr class="covers-fewer"><td class="num">2<\/td>.*?incumbent.*?scored on 15 of 36 documents/,
    );
  });
});
