/**
 * The function-length limit `npm run lint` checks (Biome's complexity/noExcessiveLinesPerFunction, configured in
 * biome.jsonc): a function of src/ over 80 lines fails it, and no file of src/ is exempt. Biome runs on a
 * temporary tree with the repository's own configuration.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');
const RULE = 'lint/complexity/noExcessiveLinesPerFunction';

interface BiomeOverride {
  includes: string[];
  linter?: { rules?: { complexity?: Record<string, unknown> } };
}
interface BiomeConfig {
  vcs?: unknown;
  overrides: BiomeOverride[];
}

/** biome.jsonc as an object (TypeScript's reader takes the comments out of JSONC). */
async function readBiomeConfig(): Promise<BiomeConfig> {
  const parsed = ts.parseConfigFileTextToJson('biome.jsonc', await readFile(path.join(root, 'biome.jsonc'), 'utf8'));
  if (parsed.error) throw new Error(ts.flattenDiagnosticMessageText(parsed.error.messageText, '\n'));
  return parsed.config as BiomeConfig;
}

/** An override that turns the rule off (an allow-list of files exempt from the limit). */
function turnsTheLimitOff(override: BiomeOverride): boolean {
  return override.linter?.rules?.complexity?.noExcessiveLinesPerFunction === 'off';
}

const work: string[] = [];
afterEach(async () => {
  await Promise.all(work.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * The files (relative to the tree) with a function over the limit, after Biome has linted `files` (path →
 * text) under `config` in a fresh directory.
 */
async function filesOverTheLimit(config: BiomeConfig, files: Record<string, string>): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docbench-function-length-'));
  work.push(dir);
  // The temporary tree is not a git checkout, so Biome's VCS integration (for .gitignore) stays off.
  await writeFile(path.join(dir, 'biome.json'), JSON.stringify({ ...config, vcs: { enabled: false } }));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  const output = await promisify(execFile)(biome, ['lint', '--reporter=github', '--max-diagnostics=none', '.'], {
    cwd: dir,
  }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? '',
  );
  const flagged = output.split('\n').filter((line) => line.includes(`title=${RULE},`));
  return [...new Set(flagged.map((line) => path.relative(dir, /file=([^,]+),/.exec(line)![1]!)))].sort();
}

/** A function whose body is `lines` lines of code. */
function functionOf(lines: number, name = 'count'): string {
  const body = Array.from({ length: lines - 2 }, () => '  total += 1;\n').join('');
  return `export function ${name}(): number {\n  let total = 0;\n${body}  return total;\n}\n`;
}

describe('the function-length limit', () => {
  it('fails a function of src/ over 80 lines and passes one of 80', async () => {
    const config = await readBiomeConfig();
    expect(await filesOverTheLimit(config, { 'src/long.ts': functionOf(81), 'src/limit.ts': functionOf(80) })).toEqual([
      'src/long.ts',
    ]);
  });

  it('counts a nested function in the function around it', async () => {
    const inner = functionOf(70, 'inner').replace('export ', '');
    const outer = `export function outer(): number {\n${inner}  let total = inner();\n${'  total += 1;\n'.repeat(10)}  return total;\n}\n`;
    expect(await filesOverTheLimit(await readBiomeConfig(), { 'src/outer.ts': outer })).toEqual(['src/outer.ts']);
  });

  it('holds src/ only: tests and benchmarks may have long functions', async () => {
    const config = await readBiomeConfig();
    expect(
      await filesOverTheLimit(config, { 'test/long.test.ts': functionOf(120), 'bench/long.ts': functionOf(120) }),
    ).toEqual([]);
  });

  it("skips the report script's outer IIFE (its module scope) but not the functions inside it", async () => {
    const config = await readBiomeConfig();
    const scoped = `(function () {\n  'use strict';\n  var total = 0;\n${'  total += 1;\n'.repeat(100)}})();\n`;
    const inner = `(function () {\n  'use strict';\n  function count() {\n${'    total += 1;\n'.repeat(90)}  }\n  var total = 0;\n  count();\n})();\n`;
    expect(
      await filesOverTheLimit(config, {
        'src/render/templates/scoped.js': scoped,
        'src/render/templates/inner.js': inner,
      }),
    ).toEqual(['src/render/templates/inner.js']);
  });

  it('is on for every file of src/: no override turns it off', async () => {
    const config = await readBiomeConfig();
    expect(config.overrides.filter(turnsTheLimitOff)).toEqual([]);
  });
});
