/**
 * Work deferred to its first use (CONTRIBUTING.md, Habits): importing docbench must not load a package or compile a
 * schema that only some calls need. Synchronous functions use these; async paths `await import()` instead.
 */
import { createRequire } from 'node:module';

/** A getter that runs `create` on its first call and returns the same value on every call after it. */
export function lazy<T>(create: () => T): () => T {
  let created = false;
  let value: T;
  return () => {
    if (!created) {
      value = create();
      created = true;
    }
    return value;
  };
}

const require = createRequire(import.meta.url);

/**
 * A getter for a package loaded by its first call, synchronously: `module.exports` of a CommonJS package (its
 * named exports are properties, what a default import would give is the object itself), the namespace of an
 * ES module (require(esm), on by default from Node 20.19).
 */
export function lazyRequire<T>(specifier: string): () => T {
  return lazy(() => require(specifier) as T);
}
