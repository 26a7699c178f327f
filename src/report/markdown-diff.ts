/**
 * Word-level differences between a reference text and an output, for the drill-down's side-by-side view.
 * jsdiff does the diffing; this module bounds its cost and turns changes into segments the template prints
 * with `{{ }}` (escaped), never as HTML.
 */
import { lazyRequire } from '../lazy.js';

// Loaded by the first diff, not with the report module (CONTRIBUTING.md, Habits).
const diffPackage = lazyRequire<typeof import('diff')>('diff');

/** One run of text: unchanged, only in the output (`ins`), or only in the reference (`del`). */
export interface DiffSegment {
  text: string;
  ins: boolean;
  del: boolean;
}

export interface DiffResult {
  segments: DiffSegment[];
  /** Why the text is shown plain or shortened, when it is. */
  note: string | null;
}

/** Per page and side: longer texts are cut (the drill-down stays a few hundred KB at most). */
export const MAX_DIFF_CHARS = 40_000;
/** Beyond this many edited tokens the texts are too different for highlighting to help (and it gets slow). */
export const MAX_EDIT_TOKENS = 800;

/**
 * Wall-clock budget for all highlighting in one report build. Diffing is O(N·D) per page, so a service that
 * returns garbage for 10,000 documents could otherwise take minutes; once the budget is spent the remaining
 * pages are shown plain with a note. Ordinary runs never reach it, so their output stays deterministic.
 */
export interface DiffBudget {
  remainingMs: number;
}

export function createDiffBudget(ms = 30_000): DiffBudget {
  return { remainingMs: ms };
}

function truncate(text: string): { text: string; cut: boolean } {
  return text.length > MAX_DIFF_CHARS ? { text: text.slice(0, MAX_DIFF_CHARS), cut: true } : { text, cut: false };
}

/** The text as one unchanged segment (for the reference column, or when no diff is possible). */
export function plainSegments(text: string): DiffResult {
  const { text: shown, cut } = truncate(text);
  return {
    segments: shown === '' ? [] : [{ text: shown, ins: false, del: false }],
    note: cut
      ? `first ${MAX_DIFF_CHARS.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters shown`
      : null,
  };
}

/** `output` with what it added (ins) and what it lost from `reference` (del). */
export function diffTexts(reference: string, output: string, budget?: DiffBudget): DiffResult {
  const ref = truncate(reference);
  const out = truncate(output);
  const cutNote =
    ref.cut || out.cut ? `texts cut to their first ${MAX_DIFF_CHARS.toLocaleString('en-US')} characters` : null;
  if (budget && budget.remainingMs <= 0) {
    return {
      segments: out.text === '' ? [] : [{ text: out.text, ins: false, del: false }],
      note: ['not highlighted: this report spent its time budget for highlighting', cutNote].filter(Boolean).join('; '),
    };
  }
  const started = performance.now();
  const changes = diffPackage().diffWordsWithSpace(ref.text, out.text, { maxEditLength: MAX_EDIT_TOKENS });
  if (budget) budget.remainingMs -= performance.now() - started;
  if (changes === undefined) {
    return {
      segments: out.text === '' ? [] : [{ text: out.text, ins: false, del: false }],
      note: [
        `too different from the reference to highlight (more than ${MAX_EDIT_TOKENS.toLocaleString('en-US')} edits)`,
        cutNote,
      ]
        .filter(Boolean)
        .join('; '),
    };
  }
  const segments: DiffSegment[] = [];
  for (const change of changes) {
    const last = segments[segments.length - 1];
    if (last && last.ins === change.added && last.del === change.removed) last.text += change.value;
    else segments.push({ text: change.value, ins: change.added, del: change.removed });
  }
  return { segments, note: cutNote };
}
