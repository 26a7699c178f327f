import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { writeRunFixture, type Fixture } from './run-fixture.js';

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => chunks.join('') });
}

let fixture: Fixture;
beforeAll(async () => {
  fixture = await writeRunFixture({ generated: 3 });
});
afterAll(async () => {
  await rm(fixture.dir, { recursive: true, force: true });
});

describe('docbench report <run-dir>', () => {
  it('rebuilds every report from the stored run and prints the summary and the files written', async () => {
    const stdout = sink();
    const stderr = sink();
    const code = await main(['report', fixture.dir], { stdout, stderr, cwd: path.dirname(fixture.dir), env: {} });
    expect(stderr.text()).toBe('');
    expect(code).toBe(0);
    expect(stdout.text()).toContain('field F1');
    expect(stdout.text()).toContain('quality gate: FAILED (2 of 3 checks)');
    expect(stdout.text()).toMatch(/wrote .*report\.html.*summary\.md/);
    expect(await readFile(path.join(fixture.dir, 'junit.xml'), 'utf8')).toContain('<testsuites');
  });

  it('exits 2 naming the directory when it does not exist', async () => {
    const stderr = sink();
    const code = await main(['report', '/nonexistent/docbench-run'], { stdout: sink(), stderr, env: {} });
    expect(code).toBe(2);
    expect(stderr.text()).toContain('/nonexistent/docbench-run');
  });

  it('exits 2 naming run.json when the directory is not a run', async () => {
    const stderr = sink();
    const code = await main(['report', path.join(fixture.dir, 'drilldown')], { stdout: sink(), stderr, env: {} });
    expect(code).toBe(2);
    expect(stderr.text()).toContain('run.json not found');
  });

  it('exits 2 on an unknown --formats value, naming the flag', async () => {
    const stderr = sink();
    const code = await main(['report', fixture.dir, '--formats', 'html,pdf'], { stdout: sink(), stderr, env: {} });
    expect(code).toBe(2);
    expect(stderr.text()).toContain('--formats');
    expect(stderr.text()).toContain('"pdf"');
  });
});
