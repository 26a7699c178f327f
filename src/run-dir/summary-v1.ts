/**
 * summary.json and documents.jsonl as docbench wrote them before several systems shared a run (schema_version
 * 1): one service, and the incumbent as the dataset's baseline files. Kept only so `upgradeSummaryV1` and
 * `upgradeDocumentV1` can read older run directories; nothing writes these shapes any more.
 */
import type { Static } from '@sinclair/typebox';
import type { FieldRowV1Format, RunSummaryV1Format, TagBreakdownV1Format } from './formats/summary.js';
import type { DocumentEvaluationV1Format } from './formats/documents.js';

/** The formats, with each field's documentation: formats/summary.ts and documents.ts. */
export type TagBreakdownV1 = Static<typeof TagBreakdownV1Format>;
export type FieldRowV1 = Static<typeof FieldRowV1Format>;
export type RunSummaryV1 = Static<typeof RunSummaryV1Format>;
export type DocumentEvaluationV1 = Static<typeof DocumentEvaluationV1Format>;
