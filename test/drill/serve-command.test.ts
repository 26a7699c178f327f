import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveServeOptions } from '../../src/commands/serve.js';
import { UsageError } from '../../src/errors.js';
import { makeTinyPdf } from '../../packages/local-engine/test/fixtures.js';
import { postJson } from '../../packages/local-engine/test/post-form.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const defaults = {
  port: 0,
  host: '127.0.0.1',
  'max-upload-mb': 64,
  ocr: 'auto' as const,
  'ocr-workers': 2,
  'latency-ms': 0,
  'fault-rate': 0,
  'fault-seed': 1,
};

describe('docbench serve flags', () => {
  it('reads the key from the named environment variable, never from a flag value', () => {
    const options = resolveServeOptions({ ...defaults, 'api-key-env': 'MY_KEY' }, { MY_KEY: 'k-1' }, '/tmp');
    expect(options.apiKey).toBe('k-1');
    expect(() => resolveServeOptions({ ...defaults, 'api-key-env': 'MY_KEY' }, {}, '/tmp')).toThrow(UsageError);
  });

  it('rejects bad numbers and unknown fault modes, and builds fault options', () => {
    expect(() => resolveServeOptions({ ...defaults, port: 70000 }, {}, '/tmp')).toThrow(/--port/);
    expect(() => resolveServeOptions({ ...defaults, 'fault-rate': 2 }, {}, '/tmp')).toThrow(/--fault-rate/);
    expect(() =>
      resolveServeOptions({ ...defaults, 'fault-rate': 0.5, 'fault-modes': '429,boom' }, {}, '/tmp'),
    ).toThrow(/boom/);
    const options = resolveServeOptions(
      {
        ...defaults,
        'fault-rate': 0.25,
        'fault-seed': 9,
        'fault-modes': '429, drop',
        'max-upload-mb': 2,
        'data-dir': 'store',
      },
      {},
      '/work',
    );
    expect(options.faults).toEqual({ rate: 0.25, seed: 9, modes: ['429', 'drop'] });
    expect(options.maxUploadBytes).toBe(2 * 1024 * 1024);
    expect(options.dataDir).toBe(path.resolve('/work', 'store'));
  });
});

describe('docbench serve process', () => {
  it('prints its base URL first, answers requests, and exits cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'docbench-serve-cmd-'));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { main } = await import('./src/cli.ts'); await main(process.argv.slice(1));",
        'serve',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--api-key-env',
        'SERVE_TEST_KEY',
      ],
      {
        cwd: root,
        env: { ...process.env, SERVE_TEST_KEY: 'key-xyz', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const lines = createInterface({ input: child.stdout! });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
      });
      expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const tiny = await makeTinyPdf();
      const { status, body } = await postJson(
        `${first}/split`,
        { file: { bytes: tiny, filename: 't.pdf' } },
        { 'x-api-key': 'key-xyz' },
      );
      expect(status).toBe(200);
      expect(body.pages[0].bounding_boxes[0].content).toBe('Invoice Number: INV-7');
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
