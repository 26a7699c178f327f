/** Progress of the phases after the calls: quiet for quick phases, periodic lines with an ETA for slow ones. */
import { describe, expect, it } from 'vitest';
import { createPhaseProgress } from '../../src/run/phase-progress.js';

/** A stream that keeps what is written to it. */
function captureStream(): { stream: NodeJS.WritableStream; text: () => string } {
  const chunks: string[] = [];
  const stream = { write: (chunk: string) => chunks.push(chunk) > 0 } as unknown as NodeJS.WritableStream;
  return { stream, text: () => chunks.join('') };
}

function setup() {
  let clock = 0;
  const { stream, text } = captureStream();
  const listener = createPhaseProgress({ stream, quiet: false, intervalMs: 1000, now: () => clock });
  const advance = (ms: number) => {
    clock += ms;
  };
  return { listener, advance, text };
}

describe('createPhaseProgress', () => {
  it('prints nothing for a phase done within the first interval', () => {
    const { listener, advance, text } = setup();
    listener({ type: 'phase-start', phase: 'scoring', total: 10 });
    advance(500);
    listener({ type: 'phase-progress', phase: 'scoring', done: 10, total: 10 });
    listener({ type: 'phase-end', phase: 'scoring', done: 10, ms: 500 });
    expect(text()).toBe('');
  });

  it('prints done/total with an ETA every interval, the time at the end, and the start of the phases after', () => {
    const { listener, advance, text } = setup();
    listener({ type: 'phase-start', phase: 'scoring', total: 100 });
    advance(1000);
    listener({ type: 'phase-progress', phase: 'scoring', done: 25, total: 100 });
    advance(200);
    listener({ type: 'phase-progress', phase: 'scoring', done: 30, total: 100 });
    listener({ type: 'phase-end', phase: 'scoring', done: 100, ms: 4000 });
    listener({ type: 'phase-start', phase: 'statistics', total: null });
    listener({ type: 'phase-end', phase: 'statistics', done: 0, ms: 300 });
    expect(text()).toBe(
      'scoring documents: 25/100 (25%), ETA 3s\nscoring documents: done in 4.0 s\nstatistics: started\n',
    );
  });

  it('is silent with quiet', () => {
    const { stream, text } = captureStream();
    const listener = createPhaseProgress({ stream, quiet: true });
    listener({ type: 'phase-end', phase: 'reports', done: 1, ms: 60_000 });
    expect(text()).toBe('');
  });
});
