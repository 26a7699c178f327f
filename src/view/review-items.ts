/**
 * The review queue (docs/view.md, The review), as pure functions. A review subject is "for a document and a field path or a
 * markdown page: the truth value and a list of {system, value, boxes}". Today the systems are the run's live
 * service (one entry per extract mode) and the dataset's stored baseline (`incumbent`); more systems plug in
 * by adding entries. Subjects are ranked most suspicious first: every system agrees with the others but not
 * with the truth (the truth is often what is wrong), then systems that disagree among themselves.
 */
import type { DocumentEvaluation, FieldVerdict } from '../run-dir/index.js';
import { markdownSimilarity } from '../score/index.js';
import type { RegionPage } from '../service/index.js';
import type { Json, Mode } from '../types.js';

/** A highlight on a page, as fractions of the page's width and height (origin top-left). */
export interface PageBox {
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface SystemValue {
  /** e.g. `local (slow)`, `incumbent`. */
  system: string;
  value: Json;
  /** Where the system located its value, when it returned boxes. */
  boxes: PageBox[];
  /** The scorer's verdict against the truth of the time, when the value was scored. */
  scored?: { truth: Json; verdict: FieldVerdict['verdict'] };
}

export interface ReviewSubject {
  document_id: string;
  kind: 'field' | 'page';
  /** The field path (kind field) or null. */
  path: string | null;
  /** 1-based page (kind page) or null. */
  page: number | null;
  truth: Json;
  systems: SystemValue[];
}

/**
 * 1: every system returns the same value, not the truth's; 2: several systems agree on a value that is not
 * the truth's; 3: the rest (systems disagree, or one differs where the others match the truth).
 */
export type ReviewTier = 1 | 2 | 3;

export interface ReviewItem extends ReviewSubject {
  /** Stable within a run: `field:<doc>:<path>` or `page:<doc>:<n>`. */
  id: string;
  tier: ReviewTier;
  /** The tier in words (`TIER_LABELS`), the page's heading for the item. */
  label: string;
  /** The same classification in detail: how many systems agree, on what. */
  reason: string;
  /** Per system: does its value match the truth? */
  matches: boolean[];
  /** Which page to show: the first with a box, the markdown page, else 1. */
  show_page: number;
}

/** What each tier says; the item's `reason` details the same classification, never another one. */
export const TIER_LABELS: Record<ReviewTier, string> = {
  1: 'every system agrees, the truth differs',
  2: 'some systems agree against the truth',
  3: 'systems differ',
};

/** Similarity above which two markdown pages count as saying the same thing. */
export const SAME_PAGE_SIMILARITY = 0.98;

/** Compares values as a reviewer reads them: case, spacing, thousands separators and currency signs aside. */
export function normalizeForReview(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') {
    const text = value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
    const numeric = text.replace(/^[$€£]\s*/, '').replace(/,(?=\d{3}\b)/g, '');
    return /^-?\d+(\.\d+)?$/.test(numeric) ? String(Number(numeric)) : text;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(normalizeForReview).join('|')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${k}:${normalizeForReview(value[k])}`)
    .join('|')}}`;
}

function sameJson(a: Json | undefined, b: Json | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Whether a system's value matches the current truth: the scorer's verdict while the truth is as scored. */
function matchesTruth(system: SystemValue, truth: Json): boolean {
  if (system.scored && sameJson(system.scored.truth, truth))
    return system.scored.verdict === 'tp' || system.scored.verdict === 'tn';
  return normalizeForReview(system.value) === normalizeForReview(truth);
}

function isEmpty(value: Json): boolean {
  return normalizeForReview(value) === '';
}

/** The size of the largest group of values that `same` calls alike (empty values never agree). */
function largestGroup(values: readonly Json[], same: (a: Json, b: Json) => boolean): number {
  const groups: { value: Json; size: number }[] = [];
  for (const value of values) {
    if (isEmpty(value)) continue;
    const group = groups.find((g) => same(g.value, value));
    if (group) group.size++;
    else groups.push({ value, size: 1 });
  }
  return Math.max(0, ...groups.map((g) => g.size));
}

/** The size of the largest group of systems with the same non-empty value. */
function largestAgreement(values: readonly Json[]): number {
  return largestGroup(values, (a, b) => normalizeForReview(a) === normalizeForReview(b));
}

/** Ranks one subject; null when every system matches the truth (nothing to review). */
export function rankSubject(subject: ReviewSubject): ReviewItem | null {
  if (subject.systems.length === 0) return null;
  const page = subject.kind === 'page';
  const matches = page
    ? subject.systems.map((s) => pageSimilarity(s.value, subject.truth) >= SAME_PAGE_SIMILARITY)
    : subject.systems.map((s) => matchesTruth(s, subject.truth));
  if (matches.every(Boolean)) return null;
  const values = subject.systems.map((s) => s.value);
  // One classification for fields and pages: only values that differ from the truth can outvote it.
  const differing = values.filter((_, i) => !matches[i]);
  const agreeing = page
    ? largestGroup(differing, (a, b) => pageSimilarity(a, b) >= SAME_PAGE_SIMILARITY)
    : largestAgreement(differing);
  const allAgree = values.length >= 2 && agreeing === values.length;
  const tier: ReviewTier = allAgree ? 1 : agreeing >= 2 ? 2 : 3;
  const reason = allAgree
    ? page
      ? `all ${values.length} systems read this page alike, and differently from the truth`
      : `all ${values.length} systems return the same value, which differs from the truth`
    : agreeing >= 2
      ? `${agreeing} of ${values.length} systems ${page ? 'read this page alike, not as the truth does' : 'agree with each other, not with the truth'}`
      : values.length >= 2
        ? matches.some(Boolean)
          ? `one system ${page ? 'reads this page differently from' : 'differs from'} the truth the others match`
          : page
            ? 'the systems read this page differently from the truth and from each other'
            : 'the systems disagree with the truth and with each other'
        : `the one system ${page ? 'reads this page differently from' : 'differs from'} the truth`;
  const firstBox = subject.systems.flatMap((s) => s.boxes)[0];
  return {
    ...subject,
    id:
      subject.kind === 'page'
        ? `page:${subject.document_id}:${subject.page}`
        : `field:${subject.document_id}:${subject.path}`,
    tier,
    label: TIER_LABELS[tier],
    reason,
    matches,
    show_page: subject.page ?? firstBox?.page ?? 1,
  };
}

function pageSimilarity(a: Json, b: Json): number {
  return markdownSimilarity(typeof a === 'string' ? a : '', typeof b === 'string' ? b : '').similarity;
}

/** Most suspicious first: tier, then fields before pages, then how many systems agree, then document and place. */
export function orderReviewItems<T extends ReviewItem>(items: readonly T[]): T[] {
  const agreement = (item: T) =>
    item.kind === 'field' ? largestAgreement(item.systems.filter((_, i) => !item.matches[i]).map((s) => s.value)) : 0;
  return [...items].sort(
    (a, b) =>
      a.tier - b.tier ||
      (a.kind === b.kind ? 0 : a.kind === 'field' ? -1 : 1) ||
      agreement(b) - agreement(a) ||
      (a.document_id < b.document_id ? -1 : a.document_id > b.document_id ? 1 : 0) ||
      (a.page ?? 0) - (b.page ?? 0) ||
      (a.path ?? '').localeCompare(b.path ?? ''),
  );
}

/** What the run knows of one document, and the truth as it is now on disk. */
export interface SubjectSources {
  doc: DocumentEvaluation;
  modes: readonly Mode[];
  /** The current truth JSON (undefined: none). */
  truthJson: Json | undefined;
  /** The current truth markdown pages (undefined: none). */
  truthPages: string[] | undefined;
  /** Reads a field path in the current truth. */
  readTruth(path: string): Json | undefined;
}

/** Every field path and markdown page of one document, with each system's value. */
export function collectSubjects(sources: SubjectSources): ReviewSubject[] {
  const { doc, modes } = sources;
  const systems: { name: string; fields: FieldVerdict[]; regions: RegionPage[] }[] = [];
  // One entry per system, split by extract mode where its fast and slow answers differ (a stored system
  // gives the same answer in every mode, and one vote, not two).
  for (const [name, system] of Object.entries(doc.systems ?? {})) {
    const regions = doc.region_pages?.systems?.[name] ?? [];
    const answers = modes.flatMap((mode) =>
      system.extraction?.[mode] ? [{ mode, fields: system.extraction[mode]!.fields }] : [],
    );
    const answerKey = (fields: FieldVerdict[]) => JSON.stringify(fields.map((f) => [f.path, f.prediction]));
    if (answers.length > 1 && answers.some((a) => answerKey(a.fields) !== answerKey(answers[0]!.fields))) {
      for (const { mode, fields } of answers) systems.push({ name: `${name} (${mode})`, fields, regions });
    } else if (answers.length > 0) {
      systems.push({ name, fields: answers[0]!.fields, regions });
    }
  }
  const subjects: ReviewSubject[] = [];
  if (sources.truthJson !== undefined) {
    const paths = [...new Set(systems.flatMap((s) => s.fields.map((f) => f.path)))];
    for (const path of paths) {
      const truth = sources.readTruth(path) ?? null;
      subjects.push({
        document_id: doc.document_id,
        kind: 'field',
        path,
        page: null,
        truth,
        systems: systems.map((system) => {
          const field = system.fields.find((f) => f.path === path);
          const value = (field?.prediction ?? null) as Json;
          return {
            system: system.name,
            value,
            boxes: findBoxes(system.regions, value),
            ...(field ? { scored: { truth: field.truth as Json, verdict: field.verdict } } : {}),
          };
        }),
      });
    }
  }
  const truthPages = sources.truthPages;
  const texts = doc.texts;
  if (truthPages !== undefined && texts) {
    const pageSystems = Object.entries(texts.systems ?? {}).flatMap(([name, pages]) =>
      pages ? [{ name, pages }] : [],
    );
    const count = Math.max(truthPages.length, ...pageSystems.map((s) => s.pages.length));
    for (let i = 0; i < count && pageSystems.length > 0; i++) {
      subjects.push({
        document_id: doc.document_id,
        kind: 'page',
        path: null,
        page: i + 1,
        truth: truthPages[i] ?? '',
        systems: pageSystems.map((s) => ({ system: s.name, value: s.pages[i] ?? '', boxes: [] })),
      });
    }
  }
  return subjects;
}

/**
 * The boxes of a system's regions whose text holds the value (at least two characters, compared as a
 * reviewer reads them): how a field is located on the page when the system returned regions but no
 * per-field boxes.
 */
export function findBoxes(regions: readonly RegionPage[], value: Json): PageBox[] {
  const needle = typeof value === 'string' || typeof value === 'number' ? normalizeForReview(value) : '';
  if (needle.length < 2) return [];
  const boxes: PageBox[] = [];
  for (const page of regions) {
    if (!(page.width > 0 && page.height > 0)) continue;
    for (const region of page.bounding_boxes) {
      if (!normalizeForReview(region.content).includes(needle)) continue;
      const b = region.bounding_box;
      const clamp = (v: number) => Math.min(1, Math.max(0, v));
      boxes.push({
        page: page.page,
        x0: clamp((b.min_x * 72) / page.width),
        y0: clamp((b.min_y * 72) / page.height),
        x1: clamp((b.max_x * 72) / page.width),
        y1: clamp((b.max_y * 72) / page.height),
      });
    }
  }
  return boxes;
}
