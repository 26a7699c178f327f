/**
 * Rule checks' figures (docs/checks.md): summary.json's `systems.<name>.checks` and documents.jsonl's
 * `systems.<name>.checks`, one module so that their parts stay apart from the other metrics'.
 */
import { Type } from '@sinclair/typebox';
import { count, interval, keyed, nullableShare, oneOf } from '../../format-parts.js';

const passCount = Type.Object({ total: count, passed: count, pass_rate: nullableShare });

/** One system's check pass rates over the run. */
export const ChecksBlockFormat = Type.Object({
  ...passCount.properties,
  /** Mean of the categories' pass rates: olmOCR-bench's headline. */
  macro_pass_rate: nullableShare,
  /** Bootstrap 95% interval of macro_pass_rate over documents; null with fewer than two documents. */
  macro_ci95: Type.Union([interval, Type.Null()]),
  by_category: keyed(passCount),
  by_type: keyed(passCount),
  /** Checks docbench does not decide (math): in no count or rate above. */
  unsupported: Type.Object({ total: count, by_type: keyed(count) }),
});

/** One check's outcome on one system's output of one document. */
export const CheckResultFormat = Type.Object({
  id: Type.String(),
  type: Type.String(),
  category: Type.String(),
  page: count,
  status: oneOf(['passed', 'failed', 'unsupported'] as const),
  explanation: Type.String(),
  repeats_passed: count,
  repeats: count,
  texts: Type.Array(Type.String()),
});

/** One system's checks on one document. */
export const DocumentChecksFormat = Type.Object({
  ...passCount.properties,
  results: Type.Array(CheckResultFormat),
});
