/**
 * What aggregation keeps of each scored document once its documents.jsonl line is written: the numbers
 * aggregation reads, without the texts, the fields' values or the normalisation records (docs/run-directory.md:
 * memory is bounded by the numbers of every document, never their texts). A large run holds this for every
 * document until its statistics are done, so its size per document is most of the run's peak memory
 * (docs/performance.md, "Scale").
 */
import type { Mode } from '../types.js';
import type { Interner, SystemDocument } from '../run-dir/index.js';
import type {
  ExtractionScore,
  FieldResult,
  MarkdownDocumentScore,
  MarkdownPageFigures,
  MarkdownScoreForAggregation,
  PageBlockFigures,
  WordScore,
} from '../score/index.js';
import type { ScoredSystemDocument } from './score-document.js';
import type { CheckResult } from '../checks/index.js';

/** A system's scores of one document as aggregation reads them: markdown pages only as their figures. */
export type SystemDocumentScores = Omit<
  ScoredSystemDocument,
  'evaluation' | 'pages' | 'regionPages' | 'markdown' | 'drift'
> & {
  evaluation: Pick<SystemDocument, 'status' | 'pages'>;
  markdown?: Omit<NonNullable<ScoredSystemDocument['markdown']>, 'score' | 'blocks'> & {
    score: MarkdownScoreForAggregation;
    /** The block figures of each page (the matches stay in documents.jsonl). */
    blocks?: { pages: PageBlockFigures[] };
  };
  drift?: MarkdownScoreForAggregation;
};

/** Every system's scores of one document. */
export interface DocumentScores {
  document_id: string;
  tags: Record<string, string>;
  systems: Map<string, SystemDocumentScores>;
  /** Rule check results per system (docs/checks.md), where the document has checks. */
  checks?: Map<string, CheckResult[]>;
}

/** One run's shared parts of kept scores: the same field verdict or string is kept once for every document. */
export interface ScoreKeeper {
  keep(scored: ScoredSystemDocument): SystemDocumentScores;
}

/** Aggregation never reads the normalisation records: one shared empty record instead of one per document. */
const NO_NORMALIZATION: ExtractionScore['normalization'] = Object.freeze({});
const NO_KEYS: string[] = Object.freeze([]) as unknown as string[];
/** Most documents are scored once: one shared record of "no repetitions". */
const NO_REPEATS: ScoredSystemDocument['repeats'] = Object.freeze({
  f1: Object.freeze({}),
  similarity: NO_KEYS as unknown as number[],
  extraction: Object.freeze({}),
}) as ScoredSystemDocument['repeats'];

/**
 * @param intern one shared string per distinct value (paths, verdicts) for the whole run.
 */
export function createScoreKeeper(intern: Interner): ScoreKeeper {
  // A field without ANLS is its path, verdicts and error, and those repeat across documents: one frozen object
  // per distinct combination, shared by every document that has it.
  const sharedFields = new Map<string, FieldResult>();
  const keepField = (f: FieldResult): FieldResult => {
    if (f.anls !== undefined) {
      const field: FieldResult = {
        path: intern(f.path),
        collapsedPath: intern(f.collapsedPath),
        verdict: f.verdict,
        strictVerdict: f.strictVerdict,
        anls: f.anls,
      };
      if (f.error) field.error = f.error;
      if (f.miss) field.miss = f.miss;
      return field;
    }
    const key = `${f.path}\u0000${f.collapsedPath}\u0000${f.verdict}\u0000${f.strictVerdict}\u0000${f.error ?? ''}\u0000${f.miss ?? ''}`;
    let field = sharedFields.get(key);
    if (!field) {
      field = {
        path: intern(f.path),
        collapsedPath: intern(f.collapsedPath),
        verdict: f.verdict,
        strictVerdict: f.strictVerdict,
      };
      if (f.error) field.error = f.error;
      if (f.miss) field.miss = f.miss;
      Object.freeze(field);
      sharedFields.set(key, field);
    }
    return field;
  };
  return {
    keep(scored) {
      const extraction: SystemDocumentScores['extraction'] = {};
      for (const [mode, entry] of Object.entries(scored.extraction) as [
        Mode,
        NonNullable<ScoredSystemDocument['extraction'][Mode]>,
      ][]) {
        extraction[mode] = {
          score: keepExtraction(entry.score, keepField),
          failed: entry.failed,
          parseFailure: entry.parseFailure,
          confidence: entry.confidence,
        };
      }
      const noRepeats = scored.repeats.similarity.length === 0 && Object.keys(scored.repeats.f1).length === 0;
      const kept: SystemDocumentScores = {
        extraction,
        latency: scored.latency,
        repeats: noRepeats ? NO_REPEATS : scored.repeats,
        evaluation: { status: scored.evaluation.status, pages: scored.evaluation.pages },
      };
      if (scored.markdown)
        kept.markdown = {
          score: keepMarkdown(scored.markdown.score),
          words: keepWords(scored.markdown.words),
          tables: scored.markdown.tables,
          ...(scored.markdown.blocks ? { blocks: { pages: scored.markdown.blocks.pages } } : {}),
        };
      if (scored.drift) kept.drift = keepMarkdown(scored.drift);
      if (scored.regions) kept.regions = scored.regions;
      return kept;
    },
  };
}

/**
 * A fresh object of the figures alone, each part one literal: the scorers build some of theirs by spreading,
 * and on Node 20 an object spread and given a key has a hidden class of its own, kept for every document
 * (docs/performance.md, "Memory").
 */
function keepExtraction(score: ExtractionScore, keepField: (f: FieldResult) => FieldResult): ExtractionScore {
  return {
    precision: score.precision,
    recall: score.recall,
    f1: score.f1,
    tp: score.tp,
    fp: score.fp,
    fn: score.fn,
    strict: {
      precision: score.strict.precision,
      recall: score.strict.recall,
      f1: score.strict.f1,
      tp: score.strict.tp,
      fp: score.strict.fp,
      fn: score.strict.fn,
      exactMatch: score.strict.exactMatch,
    },
    exactMatch: score.exactMatch,
    parseFailure: score.parseFailure,
    fields: score.fields.map(keepField),
    items: {
      truth: score.items.truth,
      predicted: score.items.predicted,
      exact: score.items.exact,
      countError: score.items.countError,
    },
    anls: score.anls,
    unexpectedKeys: score.unexpectedKeys.length === 0 ? NO_KEYS : score.unexpectedKeys,
    normalization: NO_NORMALIZATION,
    misses: score.misses && { not_in_text: score.misses.not_in_text, in_text: score.misses.in_text },
  };
}

function keepMarkdown(score: MarkdownDocumentScore): MarkdownScoreForAggregation {
  return {
    similarity: score.similarity,
    macro: score.macro,
    edits: score.edits,
    length: score.length,
    bothEmptyPages: score.bothEmptyPages,
    raw: {
      similarity: score.raw.similarity,
      macro: score.raw.macro,
      edits: score.raw.edits,
      length: score.raw.length,
      bothEmptyPages: score.raw.bothEmptyPages,
    },
    pages: score.pages.map(keepPage),
    failed: score.failed,
    truthPageCount: score.truthPageCount,
    predictedPageCount: score.predictedPageCount,
    missingPages: score.missingPages,
    extraPages: score.extraPages,
  };
}

function keepPage(page: MarkdownPageFigures): MarkdownPageFigures {
  return {
    similarity: page.similarity,
    bothEmpty: page.bothEmpty,
    raw: { similarity: page.raw.similarity, bothEmpty: page.raw.bothEmpty },
  };
}

function keepWords(words: WordScore): WordScore {
  return {
    precision: words.precision,
    recall: words.recall,
    f1: words.f1,
    missingText: words.missingText,
    matched: words.matched,
    predictedWords: words.predictedWords,
    truthWords: words.truthWords,
    bothEmpty: words.bothEmpty,
  };
}
