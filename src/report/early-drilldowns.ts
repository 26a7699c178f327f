/**
 * Drill-down parts rendered while a run's calls go on (docs/performance.md, "The tail"): early scoring hands
 * over each document's documents.jsonl line as it writes it, and every complete part of DRILLDOWN_BUNDLE
 * documents is rendered from those lines, parsed as a reader of documents.jsonl parses them, into a staging
 * directory of the run. They were rendered before there is a summary or a gate verdict, so the drill-down
 * reporter keeps a part only when it would render the same page: the same documents in the same places, no
 * gate reason among them, and the same modes, systems, reference and run id as the report's view; it renders
 * every other part itself (drilldown-reporter.ts).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MODES } from '../types.js';
import { RUN_DIR_FILES, type DocumentEvaluation, type RunManifest } from '../run-dir/index.js';
import { DRILLDOWN_BUNDLE, drilldownFileName } from './drilldown-name.js';
import { renderDrilldownHtml, type DrilldownInputs } from './drilldown-html.js';
import { buildSystemViews, type SystemsOutline } from './leaderboard-view.js';
import { createDiffBudget, type DiffBudget } from './markdown-diff.js';

export type { DrilldownInputs } from './drilldown-html.js';

/** Parts already written into a staging directory of the run, and what they were rendered from. */
export interface RenderedDrilldowns {
  /** The staging directory (inside the run directory), which the reporter may adopt. */
  dir: string;
  inputs: DrilldownInputs;
  /** Per part file name, the ids of its documents in order. */
  parts: ReadonlyMap<string, readonly string[]>;
  /** The markdown diffs' time budget, as far as these parts spent it. */
  budget: DiffBudget;
}

export interface EarlyDrilldowns {
  /** The document at `position` of documents.jsonl's order: its line as written. */
  add(position: number, line: string): Promise<void>;
  /** Stops taking documents and waits for the parts being written; null (and nothing left on disk) when no part
   * was written or one failed. */
  finish(): Promise<RenderedDrilldowns | null>;
}

/** The inputs the report's view will have, as far as they are known when the calls start. */
export function earlyDrilldownInputs(manifest: RunManifest, systems: SystemsOutline): DrilldownInputs {
  return {
    modes: MODES.filter((mode) => manifest.options.modes.includes(mode)),
    systems: buildSystemViews(systems),
    reference: systems.reference,
    runId: manifest.run_id,
  };
}

/** True when a part rendered from `a` is the page `b` would render (the same documents given). */
export function sameDrilldownInputs(a: DrilldownInputs, b: DrilldownInputs): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function startEarlyDrilldowns(runDir: string, inputs: DrilldownInputs): EarlyDrilldowns {
  const dir = path.join(runDir, `.${RUN_DIR_FILES.drilldownDir}.${randomBytes(4).toString('hex')}.tmp`);
  const budget = createDiffBudget();
  const parts = new Map<string, readonly string[]>();
  const writes = new Set<Promise<void>>();
  const noReasons = new Map<string, string[]>();
  let created: Promise<unknown> | null = null;
  let bundle: DocumentEvaluation[] = [];
  let failed = false;
  let finished = false;

  const render = async (docs: DocumentEvaluation[], file: string): Promise<void> => {
    created ??= mkdir(dir, { recursive: true });
    await created;
    const html = await renderDrilldownHtml(docs, inputs, noReasons, budget);
    const ids = docs.map((doc) => doc.document_id);
    const written = writeFile(path.join(dir, file), html).then(
      () => void parts.set(file, ids),
      () => {
        failed = true;
      },
    );
    writes.add(written);
    void written.finally(() => writes.delete(written));
  };

  return {
    async add(position, line) {
      if (finished || failed) return;
      // A part holds the documents of its places only: one handed over out of turn leaves its part to the
      // reporter.
      const start = position - (position % DRILLDOWN_BUNDLE);
      if (position !== start + bundle.length) bundle = [];
      if (position !== start + bundle.length) return;
      bundle.push(JSON.parse(line) as DocumentEvaluation);
      if (bundle.length < DRILLDOWN_BUNDLE) return;
      const docs = bundle;
      bundle = [];
      await render(docs, drilldownFileName(position)).catch(() => {
        failed = true;
      });
    },
    async finish() {
      finished = true;
      while (writes.size > 0) await Promise.all(writes);
      if (failed || parts.size === 0) {
        if (created) await rm(dir, { recursive: true, force: true });
        return null;
      }
      return { dir, inputs, parts, budget };
    },
  };
}
