/**
 * Named, pure string steps. A comparator's normalisation is an ordered list of these names, recorded with every
 * score so a number can be reproduced (CONTRIBUTING.md "Habits"; the idea of lm-evaluation-harness filters).
 */

/** The names of the string steps, in the order they are usually applied. */
export type StringStepName = 'nfkc' | 'trim' | 'collapse-whitespace' | 'casefold' | 'uppercase' | 'strip-dots';

const STRING_STEPS: Record<StringStepName, (text: string) => string> = {
  // Compatibility composition: full-width digits, ligatures and non-breaking spaces become their plain forms.
  nfkc: (text) => text.normalize('NFKC'),
  trim: (text) => text.trim(),
  'collapse-whitespace': (text) => text.replace(/\s+/gu, ' '),
  // JS has no full Unicode case folding; upper- then lower-casing folds ß → ss and final sigma → σ as it does.
  casefold: (text) => text.toUpperCase().toLowerCase(),
  uppercase: (text) => text.toUpperCase(),
  // ICD-10 codes are written with or without the dot (E11.9 / E119); only when the dataset says so.
  'strip-dots': (text) => text.replaceAll('.', ''),
};

/** Applies the named steps in order. */
export function applyStringSteps(text: string, steps: readonly StringStepName[]): string {
  let out = text;
  for (const step of steps) out = STRING_STEPS[step](out);
  return out;
}

/** Whether a string has no visible content: empty, or only whitespace (docs/metrics/extraction.md treats `""` as empty). */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}
