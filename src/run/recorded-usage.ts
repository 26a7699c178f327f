/**
 * Tokens per page a system actually used, from the records of an earlier run of the same dataset in the
 * reports directory: the first source of a token-price estimate after the config's own figure
 * (docs/systems.md, "Estimates").
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { TokensPerPage } from '../systems/index.js';
import { readManifest, readResults, runSystems, v1SystemName } from '../run-dir/index.js';

/** Runs looked at, newest first: a bound on the time the plan takes in a large reports directory. */
const MAX_RUNS = 20;

export interface RecordedTokens extends TokensPerPage {
  runId: string;
  /** Calls the figure was measured on. */
  calls: number;
}

/**
 * The newest run of dataset `datasetName` in `reportsDir` where system `name` of kind `kind` recorded token
 * usage with page counts, as tokens per page over those calls; null when there is none.
 */
export async function findRecordedTokensPerPage(
  reportsDir: string,
  datasetName: string,
  name: string,
  kind: string,
): Promise<RecordedTokens | null> {
  if (!existsSync(reportsDir)) return null;
  const entries = (await readdir(reportsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  // Run ids sort by their start time (createRunId); other names (--out) follow in name order.
  entries.sort().reverse();
  let looked = 0;
  for (const entry of entries) {
    if (looked >= MAX_RUNS) break;
    const runDir = path.join(reportsDir, entry);
    if (!existsSync(path.join(runDir, 'run.json'))) continue;
    const manifest = await readManifest(runDir).catch(() => null);
    if (
      manifest === null ||
      manifest.dataset.name !== datasetName ||
      !runSystems(manifest).some((system) => system.name === name && system.kind === kind)
    )
      continue;
    looked++;
    let input = 0;
    let output = 0;
    let pages = 0;
    let calls = 0;
    try {
      for await (const record of readResults(runDir, v1SystemName(manifest))) {
        const carried = record.usage?.pages ?? record.pages;
        if (record.system !== name || record.from_cache || record.usage?.input_tokens === undefined || !carried)
          continue;
        input += record.usage.input_tokens;
        output += record.usage.output_tokens ?? 0;
        pages += carried;
        calls++;
      }
    } catch {
      continue;
    }
    if (calls > 0)
      return {
        inputTokensPerPage: Math.round(input / pages),
        outputTokensPerPage: Math.round(output / pages),
        runId: manifest.run_id,
        calls,
      };
  }
  return null;
}
