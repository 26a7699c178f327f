/**
 * Every misconfiguration of systems: exit 2 with the key named, before anything is called or written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { runCli } from '../helpers/cli.js';
import { tinyDocuments, writeTinyDataset } from '../helpers/tiny-dataset.js';

let work: string;
let dataset: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docbench-systems-config-'));
  dataset = await writeTinyDataset(path.join(work, 'tiny'), tinyDocuments(2));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const echo = { kind: 'command', command: ['node', '-e', 'process.stdout.write("# page")'] };

/** Writes `config` (YAML, or the raw text of a JSON file), runs, and expects exit 2 naming `key`, nothing written. */
async function expectRejected(config: Record<string, unknown> | string, key: RegExp, flags: string[] = []) {
  const file = typeof config === 'string' ? 'docbench.config.json' : 'docbench.config.yaml';
  const dir = await mkdtemp(path.join(work, 'case-'));
  await writeFile(path.join(dir, file), typeof config === 'string' ? config : stringify(config));
  const { code, stderr } = await runCli(
    ['run', '--dataset', dataset, '--out', 'out', '--endpoints', 'compare', ...flags],
    dir,
  );
  expect(code, stderr).toBe(2);
  expect(stderr).toMatch(key);
  expect(stderr).not.toMatch(/unexpected error/);
  expect(existsSync(path.join(dir, 'out')), 'nothing written').toBe(false);
  expect(existsSync(path.join(dir, '.docbench-cache')), 'no cache written').toBe(false);
}

describe('systems configuration: exit 2 naming the key, nothing written', () => {
  it('an unknown kind', () =>
    expectRejected(
      { systems: { mine: { kind: 'telepathy' } } },
      /docbench\.config\.yaml: systems\.mine\.kind: expected one of interface, local, stored, command, .*got "telepathy"/,
    ));
  it('a kind without its required option', () =>
    expectRejected(
      { systems: { cand: { kind: 'interface' } } },
      /docbench\.config\.yaml: systems\.cand\.baseUrl: is required/,
    ));
  it('an unknown option of a kind', () =>
    expectRejected(
      { systems: { mine: { ...echo, argv: ['x'] } } },
      /systems\.mine\.argv: unknown setting\n.*known settings here: kind, concurrency, .*command, env, passEnv, operations/,
    ));
  it('an unknown price component', () =>
    expectRejected(
      { systems: { mine: { ...echo, price: { perToken: 1 } } } },
      /systems\.mine\.price\.perToken: unknown setting/,
    ));
  it('a common option out of range', () =>
    expectRejected(
      { systems: { mine: { ...echo, concurrency: 0 } } },
      /docbench\.config\.yaml: systems\.mine\.concurrency: expected a whole number ≥ 1, got 0/,
    ));
  it('a retry setting that does not exist', () =>
    expectRejected(
      { systems: { mine: { ...echo, retry: { tries: 3 } } } },
      /systems\.mine\.retry\.tries: unknown setting/,
    ));
  it('a misspelt common option, with the closest known key', () =>
    expectRejected(
      { systems: { mine: { ...echo, concurency: 3 } } },
      /systems\.mine\.concurency: unknown setting; did you mean "concurrency"\?/,
    ));
  it('a kind option of the wrong type', () =>
    expectRejected(
      { systems: { mine: { ...echo, env: { A: {} } } } },
      /systems\.mine\.env\.A: expected a string, got an object/,
    ));
  it('a reference that is not a name', () =>
    expectRejected(
      { systems: { mine: echo }, reference: 3 },
      /docbench\.config\.yaml: reference: expected the name of a system, e\.g\. incumbent, got 3/,
    ));
  it('an unsafe name', () =>
    expectRejected({ systems: { '../Mine': echo } }, /systems\.\.\.\/Mine: "\.\.\/Mine" is not a usable system name/));
  it('a duplicate name (JSON keeps the last silently; docbench refuses)', () =>
    expectRejected(
      '{"systems": {"mine": {"kind": "stored"}, "mine": {"kind": "local"}}}',
      /holds the same key twice at line 1/,
    ));
  it('a reference that is not a system', () =>
    expectRejected({ systems: { mine: echo }, reference: 'theirs' }, /reference "theirs" is not a system of this run/));
  it('a stored system whose folder is missing', () =>
    expectRejected(
      { systems: { vendor: { kind: 'stored' } } },
      /systems\.vendor: stored system "vendor" has no folder outputs\/vendor\//,
    ));
  it('a command that is not an array', () =>
    expectRejected(
      { systems: { mine: { kind: 'command', command: 'python3 ocr.py {file}' } } },
      /systems\.mine\.command: expected an array of strings/,
    ));
  it('a command with an unknown placeholder', () =>
    expectRejected(
      { systems: { mine: { kind: 'command', command: ['node', 'x.js', '{path}'] } } },
      /systems\.mine\.command: has the unknown placeholder \{path\}/,
    ));
  it('a command whose program does not exist', () =>
    expectRejected(
      { systems: { mine: { kind: 'command', command: ['no-such-program-here', '{file}'] } } },
      /systems\.mine\.command: "no-such-program-here" is not an executable on the PATH/,
    ));
  it('a key given as an env: value name instead of a variable name', () =>
    expectRejected(
      { systems: { mine: { ...echo, passEnv: ['sk-live key'] } } },
      /systems\.mine\.passEnv: expected a list of environment variable names/,
    ));
  it('--systems naming a system that is not configured', () =>
    expectRejected({ systems: { mine: echo } }, /--systems: "theirs" is not a configured system/, [
      '--systems',
      'theirs',
    ]));
  it('--reference naming a system that is not in the run', () =>
    expectRejected(
      { systems: { mine: echo, incumbent: { kind: 'stored' } } },
      /--reference "incumbent" is not a system of this run/,
      ['--systems', 'mine', '--reference', 'incumbent'],
    ));
  it('--base-url together with systems:', () =>
    expectRejected({ systems: { mine: echo } }, /--base-url and systems: both say what to benchmark/, [
      '--base-url',
      'http://127.0.0.1:9',
    ]));
  it('systems: that is not an object', () =>
    expectRejected(
      { systems: ['local'] },
      /docbench\.config\.yaml: systems: expected an object of name: \{ kind: …, … \}, got a list/,
    ));
});

describe('docbench systems', () => {
  it('lists the configured systems with kind, operations and the reference, then the kinds', async () => {
    const dir = await mkdtemp(path.join(work, 'list-'));
    await writeFile(
      path.join(dir, 'docbench.config.yaml'),
      stringify({
        systems: {
          mine: { ...echo, operations: ['compare'], price: { perCall: 0.002 } },
          incumbent: { kind: 'stored' },
        },
      }),
    );
    const { code, stdout } = await runCli(['systems'], dir);
    expect(code).toBe(0);
    expect(stdout).toMatch(/mine +command +compare \(concurrency 4, price perCall 0\.002\)\n/);
    expect(stdout).toMatch(/incumbent +stored +extract,compare,split \(concurrency 4\) +← reference/);
    expect(stdout).toMatch(/kinds:\n +interface .*\n +local .*\n +stored .*\n +command /);
  });

  it('nothing configured: local, plus the incumbent when the dataset has baseline files', async () => {
    const dir = await mkdtemp(path.join(work, 'default-'));
    const { code, stdout } = await runCli(['systems', '--dataset', dataset], dir);
    expect(code).toBe(0);
    expect(stdout).toMatch(/local +local +extract,compare,split,process .*\n +incumbent +stored .*← reference/);
  });
});
