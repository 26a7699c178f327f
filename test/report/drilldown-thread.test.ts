/**
 * `docbench run` writes the drill-downs on a thread of their own (src/report/drilldown-thread.ts) beside the
 * other reports. The thread must write what the drill-down reporter writes on the main thread, byte for byte,
 * gate reasons included, and report a failure as the reporter would. The thread runs the compiled worker, so
 * this test uses the build (`npm test` builds first), on both sides.
 */
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Reports from '../../src/report/index.js';
import { writeRunFixture, type Fixture } from './run-fixture.js';

const ROOT = path.resolve(__dirname, '..', '..');

let fixture: Fixture;
let built: typeof Reports;
let thread: Reports.DrilldownThread;
beforeAll(async () => {
  // 150 generated documents and the special ones: two drill-down files.
  fixture = await writeRunFixture({ generated: 150 });
  built = (await import(path.join(ROOT, 'dist', 'report', 'index.js'))) as typeof Reports;
  const started = built.startDrilldownThread();
  if (!started) throw new Error('dist/report/drilldown-worker.js is missing: run npm run build');
  thread = started;
});
afterAll(async () => {
  await thread.close();
  for (const suffix of ['', '-inline', '-thread', '-run'])
    await rm(`${fixture.dir}${suffix}`, { recursive: true, force: true });
});

/** Every file under `dir`, by path relative to it, with its content. */
async function readTree(dir: string): Promise<Map<string, string>> {
  const names = (await readdir(dir)).sort();
  return new Map(
    await Promise.all(names.map(async (name) => [name, await readFile(path.join(dir, name), 'utf8')] as const)),
  );
}

async function copyOf(suffix: string): Promise<string> {
  const dir = `${fixture.dir}${suffix}`;
  await cp(fixture.dir, dir, { recursive: true });
  return dir;
}

describe('the drill-down thread', () => {
  it('writes the same drill-down files as the reporter on the main thread, gate reasons included, and counts every document', async () => {
    const inline = await copyOf('-inline');
    const threaded = await copyOf('-thread');
    const inlineOutcome = await built.renderReports(inline, { formats: ['drilldown'] });
    let counted = 0;
    const written = await thread.write(threaded, (count) => {
      counted += count;
    });
    expect(inlineOutcome.failed).toEqual([]);
    expect(written).toEqual([`${path.join(threaded, 'drilldown')}${path.sep}`]);
    expect(counted).toBe(fixture.documents.length);
    const fromThread = await readTree(path.join(threaded, 'drilldown'));
    expect([...fromThread.keys()]).toEqual(['part-00001.html', 'part-00002.html']);
    expect(fromThread).toEqual(await readTree(path.join(inline, 'drilldown')));
    // The gate's reasons reach the page (escaped), as the table's rows show them.
    const pages = [...fromThread.values()].join('');
    expect(pages).toContain('slow field F1 0.700 &lt; 0.750');
  });

  it('renderReports with the thread writes every report as without it', async () => {
    const dir = await copyOf('-run');
    const outcome = await built.renderReports(dir, { drilldownThread: thread });
    expect(outcome.failed).toEqual([]);
    expect(outcome.written.map((file) => path.relative(dir, file))).toEqual([
      'report.html',
      'drilldown',
      'documents.csv',
      'fields.csv',
      'junit.xml',
      'summary.md',
    ]);
    expect(await readTree(path.join(dir, 'drilldown'))).toEqual(
      await readTree(path.join(`${fixture.dir}-inline`, 'drilldown')),
    );
  });

  it("rejects with the reporter's error, naming the file, and stays usable", async () => {
    const missing = path.join(fixture.dir, 'not-a-run');
    await expect(thread.write(missing, () => undefined)).rejects.toThrow(missing);
    expect(await thread.write(`${fixture.dir}-thread`, () => undefined)).toEqual([
      `${path.join(`${fixture.dir}-thread`, 'drilldown')}${path.sep}`,
    ]);
  });
});
