/**
 * The run's progress on a terminal (src/run/progress.ts): a live bar, whose package loads with the first bar
 * drawn, not with the runner.
 */
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/run/progress.js';
import type { CallRecord } from '../../src/run-dir/index.js';

/** A terminal of 100 columns that keeps what is written to it. */
function fakeTerminal(): { stream: NodeJS.WritableStream; text: () => string } {
  let written = '';
  const stream = {
    isTTY: true,
    columns: 100,
    write: (chunk: string) => {
      written += chunk;
      return true;
    },
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    on: () => stream,
    removeListener: () => stream,
  };
  return { stream: stream as unknown as NodeJS.WritableStream, text: () => written };
}

describe('progress on a terminal', () => {
  it('draws a bar with the calls done, failed and in flight', () => {
    const terminal = fakeTerminal();
    const progress = createProgress({ stream: terminal.stream, quiet: false });
    progress({ type: 'run-start', planned: 2, alreadyDone: 0, documents: 2 });
    progress({ type: 'call-start', key: 'a' });
    progress({
      type: 'call-done',
      record: { key: 'a', system: 's', status: 'failed', from_cache: false } as CallRecord,
    });
    progress({ type: 'call-start', key: 'b' });
    progress({ type: 'call-done', record: { key: 'b', system: 's', status: 'ok', from_cache: false } as CallRecord });
    progress({
      type: 'run-end',
      counts: { planned: 2, alreadyDone: 0, recorded: 2, succeeded: 1, failed: 1, fromCache: 0, notStarted: 0 },
      stopReason: null,
    });
    progress.stop();
    expect(terminal.text()).toMatch(/2\/2 calls \| failed 1 \| in flight 0/);
  });
});
