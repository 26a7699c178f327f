/**
 * `local`: docbench's own engine (the reference service of src/local), started in this process on a
 * loopback port and called through the interface client, so its answers are read exactly as a real
 * service's are. The engine (pdfjs, tesseract) is loaded only when a local system is created.
 */
import path from 'node:path';
import { DEFAULT_AUTH } from '../../service/index.js';
import { ENDPOINTS } from '../../types.js';
import { DOCBENCH_VERSION } from '../../version.js';
import { findDocbenchCommit } from '../../git-commit.js';
import type { SystemKind } from '../types.js';
import { clientSystem, createSystemClient } from './interface.js';

/** The local engine takes no options of its own. */
export type LocalOptions = Record<string, never>;

const MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

/** Where the embedded engine keeps its /compare store (the comparison views) under the cache directory. */
export function localEngineDataDir(cacheDir: string): string {
  return path.join(cacheDir, 'local-service');
}

/**
 * The engine answers as its code does: from a checkout, the commit is part of its identity, so cached
 * answers of an older engine are never reused after a code change.
 */
async function localIdentity(): Promise<string> {
  const commit = await findDocbenchCommit();
  return `local:${DOCBENCH_VERSION}${commit ? `+${commit.slice(0, 12)}` : ''}`;
}

export const localKind: SystemKind<LocalOptions> = {
  kind: 'local',
  description: "docbench's embedded reference engine (pdfjs text layer + tesseract OCR), in this process",
  docs: 'docs/systems.md',
  optionNames: [],
  parseOptions: () => ({}),
  operations: () => ENDPOINTS,
  secretEnvNames: () => [],
  identity: () => localIdentity(),
  async create(_options, context) {
    const [{ startLocalService }, identity] = await Promise.all([import('../../local/index.js'), localIdentity()]);
    const service = await startLocalService({ dataDir: localEngineDataDir(context.cacheDir), logger: context.logger });
    context.logger.info(`${context.name}: the local reference service at ${service.baseUrl} (docbench's own engine, not the real service).`);
    const client = createSystemClient(service.baseUrl, null, { auth: { ...DEFAULT_AUTH }, maxResponseBytes: MAX_RESPONSE_BYTES }, context);
    return clientSystem(context.name, 'local', identity, client, async () => {
      await client.close();
      await service.close();
    });
  },
};
