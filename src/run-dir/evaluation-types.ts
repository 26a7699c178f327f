/**
 * What scoring a stored run produces: `summary.json` (the headline numbers of every system, stable and
 * documented in docs/summary-json.md, with `schema_version`) and `documents.jsonl` (one line per document
 * with every system's scores and everything a drill-down shows). Reporters read only these and run.json:
 * they format, never re-score. Version-1 files are read through `upgrade-v1.ts`.
 */
import type { Static } from '@sinclair/typebox';
import type {
  ComparisonBlockFormat,
  ConfidenceBlockFormat,
  CostBlockFormat,
  DisagreementFormat,
  ExtractionBlockFormat,
  FieldLeaderFormat,
  FieldRowFormat,
  LatencyBlockFormat,
  LeaderboardBlockFormat,
  LeaderboardRowFormat,
  MarkdownBlockFormat,
  RegionsBlockFormat,
  RunSummaryFormat,
  SystemComparisonBlockFormat,
  SystemSummaryFormat,
  TagBreakdownFormat,
} from './formats/summary.js';
import type {
  DocumentEvaluationFormat,
  DocumentExtractionFormat,
  DocumentMarkdownFormat,
  FieldVerdictFormat,
  SystemDocumentFormat,
} from './formats/documents.js';
import type { GateCheckFormat, GateResultFormat } from './formats/gate.js';

/** 2: several systems per run (`systems.<name>`), leaderboard and comparisons with the reference. docs/summary-json.md. */
export const SUMMARY_SCHEMA_VERSION = 2;

/** gate.json's version; files from before docbench recorded it have the same shape and are read as 1. */
export const GATE_SCHEMA_VERSION = 1;

/** The formats, with each field's documentation: formats/summary.ts (summary.json), documents.ts and gate.ts. */
export type LatencyBlock = Static<typeof LatencyBlockFormat>;
export type ExtractionBlock = Static<typeof ExtractionBlockFormat>;
export type MarkdownBlock = Static<typeof MarkdownBlockFormat>;
export type ComparisonBlock = Static<typeof ComparisonBlockFormat>;
export type ConfidenceBlock = Static<typeof ConfidenceBlockFormat>;
export type RegionsBlock = Static<typeof RegionsBlockFormat>;
export type TagBreakdown = Static<typeof TagBreakdownFormat>;
export type FieldRow = Static<typeof FieldRowFormat>;
export type CostBlock = Static<typeof CostBlockFormat>;
export type SystemSummary = Static<typeof SystemSummaryFormat>;
export type LeaderboardBlock = Static<typeof LeaderboardBlockFormat>;
export type LeaderboardRow = Static<typeof LeaderboardRowFormat>;
export type SystemComparisonBlock = Static<typeof SystemComparisonBlockFormat>;
export type FieldLeader = Static<typeof FieldLeaderFormat>;
export type Disagreement = Static<typeof DisagreementFormat>;
export type RunSummary = Static<typeof RunSummaryFormat>;
export type FieldVerdict = Static<typeof FieldVerdictFormat>;
export type DocumentExtraction = Static<typeof DocumentExtractionFormat>;
export type DocumentMarkdown = Static<typeof DocumentMarkdownFormat>;
export type SystemDocument = Static<typeof SystemDocumentFormat>;
export type DocumentEvaluation = Static<typeof DocumentEvaluationFormat>;
export type GateCheck = Static<typeof GateCheckFormat>;
export type GateResult = Static<typeof GateResultFormat>;
