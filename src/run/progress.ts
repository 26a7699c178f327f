/**
 * Progress of a run for the terminal: a live bar (cli-progress) on a TTY with done / failed / in flight /
 * ETA; plain periodic lines when the output is not a TTY (CI logs); nothing with --quiet.
 */
import cliProgress from 'cli-progress';
import type { RunEvent } from './events.js';

export interface ProgressOptions {
  stream: NodeJS.WritableStream;
  quiet: boolean;
  /** Minimum time between plain lines. @default 10000 */
  intervalMs?: number;
  now?: () => number;
}

export type ProgressListener = ((event: RunEvent) => void) & { stop(): void };

export function createProgress(options: ProgressOptions): ProgressListener {
  if (options.quiet) return Object.assign(() => {}, { stop() {} });
  const isTty = Boolean((options.stream as NodeJS.WriteStream).isTTY);
  return isTty ? createBar(options.stream) : createPlainLines(options);
}

interface Tally {
  total: number;
  done: number;
  failed: number;
  inFlight: number;
}

function tallyEvent(tally: Tally, event: RunEvent): void {
  switch (event.type) {
    case 'run-start':
      tally.total = event.planned - event.alreadyDone;
      break;
    case 'call-start':
      tally.inFlight++;
      break;
    case 'call-done':
      tally.inFlight = Math.max(0, tally.inFlight - 1);
      tally.done++;
      if (event.record.status === 'failed') tally.failed++;
      break;
    default:
      break;
  }
}

function createBar(stream: NodeJS.WritableStream): ProgressListener {
  const tally: Tally = { total: 0, done: 0, failed: 0, inFlight: 0 };
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WriteStream,
      format: ' {bar} {value}/{total} calls | failed {failed} | in flight {inFlight} | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const listener = (event: RunEvent) => {
    tallyEvent(tally, event);
    if (event.type === 'run-start') {
      bar.start(tally.total, 0, { failed: 0, inFlight: 0 });
      started = true;
    } else if (started && event.type !== 'run-end') {
      bar.update(tally.done, { failed: tally.failed, inFlight: tally.inFlight });
    } else if (started && event.type === 'run-end') {
      bar.stop();
      started = false;
    }
    if (event.type === 'stopping') stream.write(`\n${event.message}\n`);
  };
  return Object.assign(listener, {
    stop() {
      if (started) bar.stop();
      started = false;
    },
  });
}

function createPlainLines(options: ProgressOptions): ProgressListener {
  const tally: Tally = { total: 0, done: 0, failed: 0, inFlight: 0 };
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 10_000;
  let startedAt = now();
  let lastLine = 0;
  const line = () => {
    const elapsed = (now() - startedAt) / 1000;
    const rate = tally.done / Math.max(elapsed, 0.001);
    const eta = rate > 0 ? Math.round((tally.total - tally.done) / rate) : null;
    options.stream.write(`progress: ${tally.done}/${tally.total} calls, ${tally.failed} failed, ${tally.inFlight} in flight${eta !== null ? `, ETA ${eta}s` : ''}\n`);
  };
  const listener = (event: RunEvent) => {
    tallyEvent(tally, event);
    if (event.type === 'run-start') {
      startedAt = now();
      lastLine = startedAt;
      options.stream.write(`running ${tally.total} calls over ${event.documents} documents${event.alreadyDone ? ` (${event.alreadyDone} already done)` : ''}\n`);
    } else if (event.type === 'stopping') {
      options.stream.write(`${event.message}\n`);
    } else if (event.type === 'run-end') {
      line();
    } else if (event.type === 'call-done' && now() - lastLine >= interval) {
      lastLine = now();
      line();
    }
  };
  return Object.assign(listener, { stop() {} });
}
