/**
 * Progress of a run for the terminal: a live bar (cli-progress) on a TTY with done / failed / in flight /
 * ETA and each priced system's spend so far; plain periodic lines when the output is not a TTY (CI logs);
 * nothing with --quiet.
 */
import type CliProgress from 'cli-progress';
import { lazyRequire } from '../lazy.js';
import type { RunEvent } from './events.js';
import { formatUsd } from './estimate.js';

// Loaded by the first bar drawn: a run with --quiet or its output in a log (and its ~20 modules of terminal
// width tables) starts its calls sooner without it (docs/performance.md, "Runner").
const cliProgressPackage = lazyRequire<typeof CliProgress>('cli-progress');

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
  /** USD recorded per priced system, earlier invocations included. */
  spent: Map<string, number>;
}

/** ` | spent gpt $0.0123, azure $0.4500`: each priced system's spend so far, or nothing when none is priced. */
function describeSpend(tally: Tally): string {
  return tally.spent.size === 0
    ? ''
    : ` | spent ${[...tally.spent].map(([name, usd]) => `${name} ${formatUsd(usd)}`).join(', ')}`;
}

function tallyEvent(tally: Tally, event: RunEvent): void {
  switch (event.type) {
    case 'run-start':
      tally.total = event.planned - event.alreadyDone;
      tally.spent = new Map(Object.entries(event.spentUsd ?? {}));
      break;
    case 'call-start':
      tally.inFlight++;
      break;
    case 'call-done':
      tally.inFlight = Math.max(0, tally.inFlight - 1);
      tally.done++;
      if (event.record.status === 'failed') tally.failed++;
      if (event.record.cost_usd !== undefined)
        tally.spent.set(event.record.system, (tally.spent.get(event.record.system) ?? 0) + event.record.cost_usd);
      break;
    default:
      break;
  }
}

function createBar(stream: NodeJS.WritableStream): ProgressListener {
  const tally: Tally = { total: 0, done: 0, failed: 0, inFlight: 0, spent: new Map() };
  const cliProgress = cliProgressPackage();
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WriteStream,
      format: ' {bar} {value}/{total} calls | failed {failed} | in flight {inFlight} | ETA {eta_formatted}{spend}',
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const listener = (event: RunEvent) => {
    tallyEvent(tally, event);
    if (event.type === 'run-start') {
      bar.start(tally.total, 0, { failed: 0, inFlight: 0, spend: describeSpend(tally) });
      started = true;
    } else if (started && event.type !== 'run-end') {
      bar.update(tally.done, { failed: tally.failed, inFlight: tally.inFlight, spend: describeSpend(tally) });
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
  const tally: Tally = { total: 0, done: 0, failed: 0, inFlight: 0, spent: new Map() };
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 10_000;
  let startedAt = now();
  let lastLine = 0;
  const line = () => {
    const elapsed = (now() - startedAt) / 1000;
    const rate = tally.done / Math.max(elapsed, 0.001);
    const eta = rate > 0 ? Math.round((tally.total - tally.done) / rate) : null;
    options.stream.write(
      `progress: ${tally.done}/${tally.total} calls, ${tally.failed} failed, ${tally.inFlight} in flight${eta !== null ? `, ETA ${eta}s` : ''}${describeSpend(tally).replace(' |', ',')}\n`,
    );
  };
  const listener = (event: RunEvent) => {
    tallyEvent(tally, event);
    if (event.type === 'run-start') {
      startedAt = now();
      lastLine = startedAt;
      options.stream.write(
        `running ${tally.total} calls over ${event.documents} documents${event.alreadyDone ? ` (${event.alreadyDone} already done)` : ''}\n`,
      );
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
