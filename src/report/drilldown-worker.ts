/**
 * The drill-down thread's side (drilldown-thread.ts): loads what writing drill-downs takes as soon as it
 * starts, then writes drilldown/ for each run directory it is sent, telling the main thread of each document.
 */
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { isDocbenchError } from '../errors.js';
import { openStoredRun, preloadRunFormats } from '../run-dir/index.js';
import { type DrilldownFileWriter, writeDrilldowns } from './reporters/drilldown-reporter.js';
import { loadTemplates } from './templates.js';
import type { DrilldownReply, DrilldownRequest } from './drilldown-thread.js';

/**
 * Each file written by this thread, synchronously: through node:fs' thread pool, which the whole process shares,
 * these writes queued ahead of the main thread's own reads and writes of the other reports and held them up.
 */
const writeHtmlHere: DrilldownFileWriter = async (file, html) => writeFileSync(file, html);

/** Documents read per progress message. */
const PROGRESS_BATCH = 100;

const port = parentPort;
if (!port) throw new Error('drilldown-worker.js runs as a worker thread (drilldown-thread.ts)');
const loaded = Promise.all([preloadRunFormats(), loadTemplates()]);

port.on('message', async ({ runDir }: DrilldownRequest) => {
  const reply = (message: DrilldownReply) => port.postMessage(message);
  try {
    await loaded;
    const inputs = await openStoredRun(runDir);
    // Told in batches: a message per document cost the main thread more than its own reports' work.
    let unreported = 0;
    const documents = async function* () {
      for await (const doc of inputs.documents()) {
        yield doc;
        if (++unreported === PROGRESS_BATCH) {
          reply({ type: 'documents', count: unreported });
          unreported = 0;
        }
      }
    };
    const files = await writeDrilldowns(runDir, inputs, documents, writeHtmlHere);
    if (unreported > 0) reply({ type: 'documents', count: unreported });
    reply({ type: 'written', files });
  } catch (error) {
    reply({
      type: 'failed',
      message: isDocbenchError(error) || error instanceof Error ? error.message : String(error),
    });
  }
});
