/**
 * A module-resolution hook that appends every resolved URL to the file named by DOCBENCH_IMPORT_LOG, one a
 * line. Registered with `node --import <this file>`: the module registers itself as the hook (resolve runs
 * on the loader thread, which is why the log is a file). Used by test/startup/lazy-load.test.ts.
 */
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { register } from 'node:module';

if (isMainThread) register(import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (process.env.DOCBENCH_IMPORT_LOG) appendFileSync(process.env.DOCBENCH_IMPORT_LOG, `${resolved.url}\n`);
  return resolved;
}
