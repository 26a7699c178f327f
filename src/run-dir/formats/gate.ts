/**
 * gate.json: the gate's verdict on a run; summary.md, junit.xml, the HTML and the exit code agree with it.
 * Written with `schema_version` 1; files from before docbench recorded it have the same shape. Checks and
 * document failures name their `system`; files without it belong to the run's primary system.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineFileCheck } from '../check-file.js';
import { GATE_SCHEMA_VERSION } from '../evaluation-types.js';
import { nullableNum, oneOf } from '../../format-parts.js';

/** One threshold check of the quality gate. */
export const GateCheckFormat = Type.Object({
  /** e.g. "extraction.slow.f1", "markdown.similarity", "latency_ms.extract:slow.p95", "fields.slow.codes[].cpt.f1". */
  metric: Type.String(),
  /** The system checked (absent in gate.json files written before runs had several systems). */
  system: Type.Optional(Type.String()),
  /** Tag scope when the threshold is per tag, e.g. "tier=fax". */
  scope: Type.Optional(Type.String()),
  op: oneOf(['>=', '<='] as const),
  threshold: Type.Number(),
  /** Null when the metric could not be computed (counts as failed). */
  actual: nullableNum,
  passed: Type.Boolean(),
  message: Type.String(),
});

export const GateResultFormat = Type.Object({
  passed: Type.Boolean(),
  checks: Type.Array(GateCheckFormat),
  /** Per-document thresholds (junit): documents below them, with the reason. */
  document_failures: Type.Array(
    Type.Object({
      document_id: Type.String(),
      system: Type.Optional(Type.String()),
      reasons: Type.Array(Type.String()),
    }),
  ),
});

/** The file: the verdict and its schema version. */
const GateFileFormat = Type.Object({
  schema_version: Type.Optional(Type.Literal(GATE_SCHEMA_VERSION)),
  ...GateResultFormat.properties,
});

export const checkGateV1 = defineFileCheck<Static<typeof GateFileFormat>>('gate-v1', GateFileFormat);
