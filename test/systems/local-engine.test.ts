/**
 * docbench starts its local engine through `startLocalEngine` (`docbench serve`, a `local` system): an option the
 * engine cannot honour here is the user's usage error (exit code 2), as a bad flag is, not a failed run.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

describe('startLocalEngine', () => {
  afterEach(() => {
    vi.doUnmock('onnxruntime-node');
    vi.resetModules();
  });

  it('turns the engine’s option error (PP-OCR asked for where onnxruntime does not load) into a UsageError', async () => {
    vi.resetModules();
    vi.doMock('onnxruntime-node', () => {
      throw new Error("Cannot find package 'onnxruntime-node'");
    });
    const [{ startLocalEngine }, { exitCodeFor }] = await Promise.all([
      import('../../src/systems/index.js'),
      import('../../src/errors.js'),
    ]);
    const failure = await startLocalEngine({ ocr: 'pp-ocr', ocrWorkers: 1 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      name: 'UsageError',
      code: 'USAGE',
      subject: 'ocr',
      message: expect.stringMatching(/^OCR pp-ocr is not available: onnxruntime-node/),
      hint: expect.stringMatching(/choose ocr auto or tesseract/),
    });
    expect(exitCodeFor(failure)).toBe(2);
  });
});
