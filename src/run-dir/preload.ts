/**
 * Loading ahead of need: `docbench run` loads what reading its files takes (TypeBox, which the formats are
 * built with, ~200 modules; each format's precompiled check) while its calls wait on the network, instead of
 * after them. Loaded after the calls, they were a good part of the time between the last call and the
 * reports (docs/performance.md, "Runner").
 */

import { setImmediate } from 'node:timers/promises';

/** Loads every run-file format and its check now; what the readers would otherwise load on first use. */
export async function preloadRunFormats(): Promise<void> {
  const formats = await import('./formats/index.js');
  for (const check of [
    formats.checkRecord,
    formats.checkManifestV1,
    formats.checkSummaryV2,
    formats.checkDocumentLine,
    formats.checkGateV1,
  ]) {
    // V8 compiles a function on its first call, and the generated checks are large (summary.json's ~330 KB):
    // their first call, whatever the value, cost more than the check itself (~40 ms for summary.json's, after
    // the last call). Called on null, which each rejects, they are compiled now.
    check()(null);
    await setImmediate();
  }
}
