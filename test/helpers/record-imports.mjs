/**
 * A module-resolution hook that appends every resolved URL to the file named by DOCBENCH_IMPORT_LOG, one a
 * line. Registered with `node --import <this file>`: the module registers itself as the hook (resolve runs
 * on the loader thread, which is why the log is a file). CommonJS loads (a package's own `require`s, and
 * `require` through createRequire, ES modules included) pass no resolve hook on Node 20: at exit the main
 * thread appends what require.cache holds, as file URLs. Used by test/startup/lazy-load.test.ts.
 */
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

if (isMainThread) {
  register(import.meta.url);
  const { cache } = createRequire(import.meta.url);
  process.on('exit', () => {
    if (process.env.DOCBENCH_IMPORT_LOG)
      appendFileSync(
        process.env.DOCBENCH_IMPORT_LOG,
        Object.keys(cache)
          .map((file) => `${pathToFileURL(file).href}\n`)
          .join(''),
      );
  });
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (process.env.DOCBENCH_IMPORT_LOG) appendFileSync(process.env.DOCBENCH_IMPORT_LOG, `${resolved.url}\n`);
  return resolved;
}
