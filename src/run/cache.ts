/**
 * On-disk cache of successful responses, keyed by what determines the answer: the document's content hash,
 * the endpoint and its parameters, and the service's identity. Re-running a dataset does not pay twice.
 * Entries are written atomically, one file each, so concurrent runs can share a cache directory.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs-utils.js';
import type { Endpoint, Mode } from '../types.js';
import type { EndpointResult, Redactor } from '../service/index.js';
import type { ReportedIdentity } from '../systems/index.js';

const CACHE_VERSION = 1;

export interface CacheKeyParts {
  /** Base URL of a remote service, or `local:<docbench version>` for the embedded engine. */
  service: string;
  endpoint: Endpoint;
  mode: Mode | null;
  /** sha256 of the document's bytes, or its fileUrl. */
  document: string;
  /** Everything else sent: schema, customContext, baseline markdown, process flags. */
  params: unknown;
}

export interface CacheEntry {
  result: EndpointResult;
  /** Timings of the call that produced it, reported again (flagged from_cache) so latency stays the service's. */
  attempts: number;
  latency_ms: number;
  last_attempt_ms: number;
  created_at: string;
  /** What the system reported itself to be when it answered (absent in entries written before). */
  reported?: ReportedIdentity;
}

export function cacheKey(parts: CacheKeyParts): string {
  return createHash('sha256')
    .update(JSON.stringify({ v: CACHE_VERSION, ...parts }))
    .digest('hex');
}

export interface ResponseCache {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
}

/** `redact` removes the API key from what is stored, should a service echo it inside a result. */
/** The file an entry is kept in. */
export function cacheFilePath(dir: string, key: string): string {
  return path.join(dir, key.slice(0, 2), `${key}.json`);
}

export function createDiskCache(dir: string, redact: Redactor = (text) => text): ResponseCache {
  const fileFor = (key: string) => cacheFilePath(dir, key);
  return {
    async get(key) {
      try {
        return JSON.parse(await readFile(fileFor(key), 'utf8')) as CacheEntry;
      } catch {
        // Missing or unreadable (e.g. a torn write from an older version): a miss, the call is made again.
        return undefined;
      }
    },
    async set(key, entry) {
      await writeFileAtomic(fileFor(key), redact(JSON.stringify(entry)));
    },
  };
}
