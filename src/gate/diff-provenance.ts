/**
 * What differs between two runs besides their figures (docs/gate.md, "What changed"): what the compared
 * system reported itself to be (model snapshot, fingerprint, API and model versions), its kind and settings
 * (prompts, options), the dataset's content, the schema, the normalisation settings and the metric versions.
 * `docbench diff` lists these at the top, before any figure: a change of figures is read against them.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { runSystems, type ManifestSystem, type ReportedTally } from '../run-dir/index.js';
import type { ProvenanceChange } from './diff-types.js';
import type { DiffRun } from './read-diff-run.js';

/** Options that pace the calls or estimate their cost: they never change an answer. */
const PACING_OPTIONS = new Set(['concurrency', 'ratePerSecond', 'timeoutMs', 'retry', 'estimate']);
/** Longer values (prompts) are shown by their length and hash. */
const SHOWN_CHARS = 80;

/**
 * Every difference, reported identity first: of the compared systems, then of every other system both runs
 * have under one name (a changed snapshot matters whichever system the figures are about).
 */
export function compareProvenance(baseline: DiffRun, candidate: DiffRun): ProvenanceChange[] {
  const systemsA = runSystems(baseline.manifest);
  const systemsB = runSystems(candidate.manifest);
  const pairs: [ManifestSystem | undefined, ManifestSystem | undefined][] = [
    [systemsA.find((s) => s.name === baseline.system), systemsB.find((s) => s.name === candidate.system)],
    ...systemsA
      .filter((a) => a.name !== baseline.system && a.name !== candidate.system)
      .map((a): [ManifestSystem, ManifestSystem | undefined] => [a, systemsB.find((b) => b.name === a.name)]),
  ];
  const named = (a: ManifestSystem | undefined, b: ManifestSystem | undefined) =>
    a && b && a.name !== b.name ? `${a.name} → ${b.name}` : (a ?? b)!.name;
  const present = pairs.filter(([a, b]) => a && b);
  const changes = [
    ...present.flatMap(([a, b]) => reportedChanges(named(a, b), a!.reported, b!.reported)),
    ...present.flatMap(([a, b]) => systemChanges(named(a, b), a!, b!)),
  ];
  const push = (what: string, before: unknown, after: unknown) => {
    if (!isDeepStrictEqual(before, after)) changes.push({ what, baseline: show(before), candidate: show(after) });
  };
  push('dataset content hash', baseline.manifest.dataset.content_hash, candidate.manifest.dataset.content_hash);
  const scoringA = baseline.summary.scoring;
  const scoringB = candidate.summary.scoring;
  // Summaries written before `scoring` say nothing of it: no difference can be named.
  if (scoringA && scoringB) {
    push('schema (sha256)', scoringA.schema_sha256, scoringB.schema_sha256);
    push('normalisation: locale', scoringA.locale, scoringB.locale);
    for (const path of unionKeys(scoringA.comparators, scoringB.comparators))
      push(`normalisation: comparator of ${path}`, scoringA.comparators[path], scoringB.comparators[path]);
  }
  for (const metric of unionKeys(baseline.summary.metric_versions, candidate.summary.metric_versions))
    push(
      `metric version: ${metric}`,
      baseline.summary.metric_versions[metric],
      candidate.summary.metric_versions[metric],
    );
  return changes;
}

/** Per reported name, the distinct values of each run (with their counts) when the sets differ. */
function reportedChanges(
  system: string,
  a: ReportedTally | undefined,
  b: ReportedTally | undefined,
): ProvenanceChange[] {
  return unionKeys(a ?? {}, b ?? {}).flatMap((name) => {
    const before = a?.[name] ?? {};
    const after = b?.[name] ?? {};
    const same = isDeepStrictEqual(Object.keys(before).sort(), Object.keys(after).sort());
    return same
      ? []
      : [{ what: `${system}: reported ${name}`, baseline: showTally(before), candidate: showTally(after) }];
  });
}

/** The kind and every option but pacing, of one system in each run. */
function systemChanges(system: string, a: ManifestSystem, b: ManifestSystem): ProvenanceChange[] {
  const changes: ProvenanceChange[] = [];
  if (a.kind !== b.kind) changes.push({ what: `${system}: kind`, baseline: a.kind, candidate: b.kind });
  for (const key of unionKeys(a.options, b.options)) {
    if (PACING_OPTIONS.has(key) || isDeepStrictEqual(a.options[key], b.options[key])) continue;
    changes.push({
      what: `${system}: option ${key}`,
      baseline: show(a.options[key]),
      candidate: show(b.options[key]),
    });
  }
  return changes;
}

function unionKeys(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

function showTally(values: Readonly<Record<string, number>>): string {
  const entries = Object.entries(values);
  return entries.length === 0 ? '(not reported)' : entries.map(([value, count]) => `${value} (${count})`).join(', ');
}

function show(value: unknown): string {
  if (value === undefined) return '(not set)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= SHOWN_CHARS) return text;
  return `${text.length} characters, sha256 ${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}
