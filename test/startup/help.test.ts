/**
 * `docbench --help` is rendered without yargs (src/commands/help.ts); these tests fail as soon as that text and
 * what the yargs program prints for `--help` differ, at any width, so neither can drift from the other.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { isTopLevelHelp } from '../../src/commands/help.js';
import { COMMAND_HEADERS } from '../../src/commands/headers.js';
import { parseAndRun } from '../../src/commands/parser.js';

/** A stdout that records what is written to it; `columns` as a terminal reports them, or none for a pipe. */
function captureStream(columns?: number): { stream: NodeJS.WritableStream; text: () => string } {
  let text = '';
  const stream = {
    columns,
    write: (chunk: string | Uint8Array) => {
      text += String(chunk);
      return true;
    },
  };
  return { stream: stream as unknown as NodeJS.WritableStream, text: () => text };
}

/** Runs `argv` through `run`; returns the exit code, what reached the given stdout and what yargs logged. */
async function capture(
  run: typeof main,
  argv: string[],
  columns?: number,
): Promise<{ code: number; stdout: string; logged: string }> {
  const stdout = captureStream(columns);
  const stderr = captureStream();
  let logged = '';
  // yargs prints its help with console.log, not to the stdout main() is given.
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    logged += `${parts.join(' ')}\n`;
  });
  try {
    const code = await run(argv, { stdout: stdout.stream, stderr: stderr.stream, env: {} });
    expect(stderr.text()).toBe('');
    return { code, stdout: stdout.text(), logged };
  } finally {
    log.mockRestore();
    // main() sets process.exitCode for the real CLI; the test process must not inherit it.
    process.exitCode = 0;
  }
}

/** yargs reads its locale from the process environment: English for these tests, whatever the machine's. */
function stubLocale(lang: string): void {
  vi.stubEnv('LC_ALL', '');
  vi.stubEnv('LC_MESSAGES', '');
  vi.stubEnv('LANG', lang);
  vi.stubEnv('LANGUAGE', '');
}

describe('docbench --help without yargs', () => {
  beforeEach(() => stubLocale('en_US.UTF-8'));
  afterEach(() => vi.unstubAllEnvs());

  it('prints what yargs prints, at every terminal width from 1 to 130 columns (capped at 110)', async () => {
    const mismatched: number[] = [];
    for (let columns = 1; columns <= 130; columns++) {
      const fast = await capture(main, ['--help'], columns);
      const yargs = await capture(parseAndRun, ['--help'], columns);
      // The fast path wrote to the given stdout and yargs, which logs, never ran; and vice versa.
      expect(fast.logged).toBe('');
      expect(yargs.stdout).toBe('');
      expect([fast.code, yargs.code]).toEqual([0, 0]);
      if (fast.stdout !== yargs.logged) mismatched.push(columns);
    }
    expect(mismatched).toEqual([]);
  });

  it('prints what yargs prints to a stream without columns (a pipe: 100 columns), listing every command and flag', async () => {
    const fast = await capture(main, ['--help']);
    const yargs = await capture(parseAndRun, ['--help']);
    expect(fast.stdout).toBe(yargs.logged);
    for (const header of Object.values(COMMAND_HEADERS)) expect(fast.stdout).toContain(`docbench ${header.command}`);
    expect(fast.stdout).toMatch(/^ {2}--verbose {2}Print debugging detail to stderr +\[boolean\]$/m);
    expect(fast.stdout).toMatch(/^docbench <command> \[options\]\n\n.*\n\nCommands:\n/);
    expect(fast.stdout).toMatch(
      /\n\nExit codes: 0 completed, [\s\S]*could\s+not\s+complete\s+\(outage,\s+rejected\s+key,\s+budget\s+reached\)\.\n$/,
    );
    expect(fast.stdout).toMatch(/^ {2}docbench plan +What `run` with the same flags would call and cost/m);
    expect(Math.max(...fast.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(100);
  });

  it('leaves another locale to yargs, which translates its own words', async () => {
    stubLocale('de_DE.UTF-8');
    const german = await capture(main, ['--help'], 80);
    expect(german.code).toBe(0);
    expect(german.stdout).toBe('');
    expect(german.logged).toContain('Kommandos:');
    expect(german.logged).toContain('docbench serve');
  });

  it('answers only the top-level --help itself', () => {
    const env = { LANG: 'C.UTF-8' };
    expect(isTopLevelHelp(['--help'], 100, env)).toBe(true);
    expect(isTopLevelHelp(['--help'], 100, { LANG: 'en_GB.UTF-8' })).toBe(true);
    expect(isTopLevelHelp(['--help'], 100, {})).toBe(true);
    expect(isTopLevelHelp(['--help'], 100, { LANG: 'en_GB.UTF-8', LC_ALL: 'fr_FR.UTF-8' })).toBe(false);
    // A terminal reporting 0 columns: yargs does not wrap at all then.
    expect(isTopLevelHelp(['--help'], 0, env)).toBe(false);
    for (const argv of [['run', '--help'], ['--help', 'run'], ['--help', '--quiet'], ['-h'], ['help'], []])
      expect(isTopLevelHelp(argv, 100, env)).toBe(false);
  });
});
