/**
 * Which planned calls the response cache already holds, without calling anything: the key the runner would
 * look up (src/run/cache.ts) for each first repetition of a cacheable system, checked for a file. Repeats
 * always go past the cache, so they are never counted.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Dataset } from '../types.js';
import { cacheFilePath, cacheKey } from './cache.js';
import type { PlannedCall } from './plan.js';
import { buildRequest, cacheParams, documentIdentity } from './runner.js';

/**
 * @param identities what each system's answers are cached under; systems absent are not checked.
 * @returns the keys of the calls found.
 */
export async function findCachedCalls(
  calls: readonly PlannedCall[],
  identities: ReadonlyMap<string, string>,
  dataset: Dataset,
  cacheDir: string,
): Promise<Set<string>> {
  const found = new Set<string>();
  const candidates = calls.filter((call) => call.repeat === 0 && identities.has(call.system));
  // No cache yet (or an empty one): nothing to hash.
  if (candidates.length === 0 || !existsSync(cacheDir) || readdirSync(cacheDir).length === 0) return found;
  const documents = new Map<string, Promise<string | null>>();
  const identityOf = (call: PlannedCall) => {
    let identity = documents.get(call.document.id);
    if (!identity) {
      const { file, fileUrl } = call.document;
      identity = file
        ? readFile(file).then(
            (bytes) => documentIdentity({ bytes, filename: '', contentType: '' }),
            () => null,
          )
        : Promise.resolve(fileUrl ? documentIdentity({ fileUrl }) : null);
      documents.set(call.document.id, identity);
    }
    return identity;
  };
  for (const call of candidates) {
    const document = await identityOf(call);
    if (document === null) continue;
    const request = await buildRequest(call, dataset).catch(() => null);
    if (request === null) continue;
    const key = cacheKey({
      service: identities.get(call.system)!,
      endpoint: call.endpoint,
      mode: call.mode,
      document,
      params: cacheParams(request),
    });
    if (existsSync(cacheFilePath(cacheDir, key))) found.add(call.key);
  }
  return found;
}
