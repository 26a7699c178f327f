/** `docbench dataset import --help` names every format of the registry (docs/datasets-import.md). */
import { tmpdir } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { importFormatNames } from '../../src/dataset/index.js';
import { runCli } from '../helpers/cli.js';

describe('dataset import --help', () => {
  it('names the public formats', async () => {
    let logged = '';
    // yargs prints its help with console.log, not to the stdout main() is given.
    const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
      logged += `${parts.join(' ')}\n`;
    });
    try {
      const help = await runCli(['dataset', 'import', '--help'], tmpdir());
      expect(help.code).toBe(0);
    } finally {
      log.mockRestore();
    }
    expect(importFormatNames()).toEqual(expect.arrayContaining(['sroie', 'cord', 'funsd', 'xfund', 'docile']));
    expect(logged.replace(/\s+/g, ' ')).toContain(`formats: ${importFormatNames().join(', ')}`);
  });
});
