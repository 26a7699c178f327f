/**
 * Drill-downs on a thread of their own: `docbench run` starts it while its calls wait on the network, and the
 * drill-downs, the longest of the reports, are then written beside the view and the other reports instead of
 * after them, on the second core (docs/performance.md, "The tail"). The thread reads the stored run itself and
 * writes what the drill-down reporter writes (test/report/drilldown-thread.test.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface DrilldownRequest {
  runDir: string;
}

export type DrilldownReply =
  | { type: 'documents'; count: number }
  | { type: 'written'; files: string[] }
  | { type: 'failed'; message: string };

export interface DrilldownThread {
  /**
   * Writes `runDir`'s drill-downs; `onDocuments` as documents are read, with how many since the last call. Rejects with the reporter's error;
   * resolves to null, having written nothing, when the thread itself failed (the caller then writes them).
   */
  write(runDir: string, onDocuments: (count: number) => void): Promise<string[] | null>;
  /** Stops the thread. */
  close(): Promise<void>;
}

/**
 * The compiled worker (dist/report/drilldown-worker.js). From src/ (tsx, vitest) there is none: callers then
 * write the drill-downs on the main thread, as the drill-down reporter always can.
 */
const WORKER_FILE = fileURLToPath(new URL('./drilldown-worker.js', import.meta.url));

/** Starts the thread, or null where there is no compiled worker to start. */
export function startDrilldownThread(): DrilldownThread | null {
  if (!existsSync(WORKER_FILE)) return null;
  const worker = new Worker(WORKER_FILE);
  // Idle, it never keeps the process alive; a write in flight does.
  worker.unref();
  let exited = false;
  const ended = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  // A thread that fails to start exits: its error is not the run's, and the caller writes the drill-downs.
  worker.on('error', () => undefined);
  let busy = false;
  return {
    write(runDir, onDocuments) {
      if (exited || busy) return Promise.resolve(null);
      busy = true;
      worker.ref();
      return new Promise<string[] | null>((resolve, reject) => {
        const settle = () => {
          busy = false;
          worker.off('message', onMessage);
          worker.off('error', onLost);
          worker.off('exit', onLost);
          worker.unref();
        };
        const onMessage = (reply: DrilldownReply) => {
          if (reply.type === 'documents') return onDocuments(reply.count);
          settle();
          if (reply.type === 'written') resolve(reply.files);
          else reject(new Error(reply.message));
        };
        const onLost = () => {
          settle();
          resolve(null);
        };
        worker.on('message', onMessage);
        worker.on('error', onLost);
        worker.on('exit', onLost);
        worker.postMessage({ runDir } satisfies DrilldownRequest);
      });
    },
    async close() {
      await worker.terminate();
      await ended;
    },
  };
}
