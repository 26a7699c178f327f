/**
 * The systems of a resumed run are rebuilt from run.json (docs/run-directory.md, "Resuming"): a common setting
 * the system took from the run follows this invocation's, one of its own stays; a configured system of the
 * same name with the same options is taken (its budget and pacing with it); one with other options or another
 * kind is refused naming each change.
 */
import { describe, expect, it } from 'vitest';
import { resumedSystemSpecs } from '../../src/run/resume-systems.js';
import { DEFAULT_RETRY_POLICY } from '../../src/service/index.js';
import type { SystemSpec } from '../../src/systems/index.js';
import type { RunManifest } from '../../src/run-dir/manifest.js';
import { makeRunManifest } from '../helpers/run-manifest.js';

const RUN_PACING = { concurrency: 4, ratePerSecond: null, timeoutMs: 600_000, retry: DEFAULT_RETRY_POLICY };
const NOW_PACING = {
  concurrency: 8,
  ratePerSecond: 2,
  timeoutMs: 30_000,
  retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 },
};

function previous(): RunManifest {
  const manifest = makeRunManifest({
    runId: 'r1',
    contentHash: 'sha256:00',
    documents: 1,
    modes: ['slow'],
    endpoints: ['extract'],
    systems: [
      { name: 'gpt', kind: 'openai' },
      { name: 'svc', kind: 'interface' },
    ],
  });
  manifest.config = { ...RUN_PACING };
  const [gpt, svc] = manifest.systems!;
  gpt!.options = { baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-4o-mini', ...RUN_PACING, estimate: null };
  gpt!.price = { perCall: 0.01 };
  gpt!.max_cost_usd = 1;
  svc!.options = { baseUrl: 'http://127.0.0.1:2', ...RUN_PACING, concurrency: 2 };
  return manifest;
}

function spec(name: string, kind: string, options: Record<string, unknown>): SystemSpec {
  return { name, kind, options, common: { ...NOW_PACING, price: { perCall: 0.02 }, maxCostUsd: 5, estimate: null } };
}

describe('resumedSystemSpecs', () => {
  it('rebuilds each system from run.json; inherited pacing follows this invocation, its own stays', () => {
    const [gpt, svc] = resumedSystemSpecs(previous(), [], NOW_PACING);
    expect(gpt).toEqual({
      name: 'gpt',
      kind: 'openai',
      options: { baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-4o-mini' },
      common: { ...NOW_PACING, price: { perCall: 0.01 }, maxCostUsd: 1, estimate: null },
    });
    expect(svc!.common.concurrency).toBe(2);
    expect(svc!.common.timeoutMs).toBe(NOW_PACING.timeoutMs);
  });

  it('takes a configured system with the same options, with its own price and budget', () => {
    const configured = spec('gpt', 'openai', { baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-4o-mini' });
    const [gpt] = resumedSystemSpecs(previous(), [configured], NOW_PACING);
    expect(gpt).toBe(configured);
  });

  it('refuses a configured system that changes an option or the kind, naming each change', () => {
    const model = spec('gpt', 'openai', { baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-4o' });
    expect(() => resumedSystemSpecs(previous(), [model], NOW_PACING)).toThrow(
      'systems.gpt.model: "gpt-4o-mini" → "gpt-4o"',
    );
    const kind = spec('svc', 'command', { command: ['x'] });
    expect(() => resumedSystemSpecs(previous(), [kind], NOW_PACING)).toThrow('systems.svc.kind: interface → command');
  });
});
