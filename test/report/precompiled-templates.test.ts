/**
 * `npm run build` precompiles the templates into dist/render/precompiled-templates.js, and the built CLI
 * renders with them; the sources (this test process) compile the .hbs files instead. Both must write the
 * same bytes. Runs the built CLI, as `npm test` builds first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReports } from '../../src/report/index.js';
import { writeRunFixture, type Fixture } from './run-fixture.js';

const ROOT = path.resolve(__dirname, '..', '..');

let fixture: Fixture;
beforeAll(async () => {
  fixture = await writeRunFixture({ generated: 3 });
});
afterAll(async () => {
  await rm(fixture.dir, { recursive: true, force: true });
  await rm(`${fixture.dir}-built`, { recursive: true, force: true });
});

/** Every file under `dir`, by path relative to it, with its content. */
async function readTree(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  return new Map(
    await Promise.all(files.sort().map(async (file) => [file, await readFile(path.join(dir, file), 'utf8')] as const)),
  );
}

describe('precompiled templates', () => {
  it('the built CLI (precompiled templates) writes the same reports as the sources (compiled .hbs files)', async () => {
    expect(existsSync(path.join(ROOT, 'dist', 'render', 'precompiled-templates.js'))).toBe(true);
    const built = `${fixture.dir}-built`;
    await cp(fixture.dir, built, { recursive: true });
    await renderReports(fixture.dir);
    const child = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'docbench.js'), 'report', built, '--quiet'], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const [fromSources, fromBuild] = await Promise.all([readTree(fixture.dir), readTree(built)]);
    expect([...fromBuild.keys()]).toEqual([...fromSources.keys()]);
    expect(
      [...fromSources.get(path.join('drilldown', 'part-00001.html'))!.matchAll(/<article class="doc"/g)].length,
    ).toBeGreaterThan(3);
    // summary.md gives the reports' own time, which differs between two renderings.
    const normalise = (text: string) => text.replace(/^Time: .*$/m, 'Time: …');
    for (const [file, text] of fromSources) expect(normalise(fromBuild.get(file)!), file).toBe(normalise(text));
  });
});
