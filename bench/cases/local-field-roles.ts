/**
 * The local engine's reading of a schema's field wording on the field-role corpus (bench/field-roles/README.md,
 * docs/field-role-corpus.md): each field of the paraphrased schemas of bench/paraphrases/, given to `classifyField`
 * with its path, type, format, title and description, against the role it was labelled with. Accuracy over every
 * field (a field with no role must get none) and precision and recall per role, for the development part and the
 * held-out part apart. The development part's misses are printed to write rules from; the held-out part's never
 * are, so its figure says how the rules carry over to wordings nobody wrote them for.
 */
import path from 'node:path';
import { classifyField } from '@docbench/local-engine/in-process';
import type { BenchCase, BenchFigure } from '../harness.js';
import {
  CORPUS_DIR,
  CORPUS_PARTS,
  type CorpusScore,
  readFieldRoleCorpus,
  scoreFieldRoles,
} from '../support/field-role-corpus.js';

function figuresOf(part: string, score: CorpusScore): BenchFigure[] {
  const figures: BenchFigure[] = [
    {
      name: `${part}: accuracy over every field`,
      value: score.accuracy,
      unit: 'ratio',
      note: `${score.correct} of ${score.entries} fields`,
    },
  ];
  for (const role of score.roles) {
    const counts = `tp ${role.tp} fp ${role.fp} fn ${role.fn}`;
    if (role.precision !== null)
      figures.push({ name: `${part}: ${role.role} precision`, value: role.precision, unit: 'ratio', note: counts });
    if (role.recall !== null)
      figures.push({ name: `${part}: ${role.role} recall`, value: role.recall, unit: 'ratio', note: counts });
  }
  return figures;
}

export const cases: BenchCase[] = [
  {
    id: 'local-field-roles',
    title: "Local engine's field roles (classifyField) on the field-role corpus: development and held-out parts",
    async run(): Promise<BenchFigure[]> {
      const figures: BenchFigure[] = [];
      for (const part of CORPUS_PARTS) {
        const score = scoreFieldRoles(await readFieldRoleCorpus(path.join(CORPUS_DIR, `${part}.jsonl`)), classifyField);
        figures.push(...figuresOf(part, score));
        if (part !== 'dev') continue;
        for (const { entry, predicted } of score.misses)
          process.stdout.write(
            `    dev miss: ${entry.set}/${entry.variant} ${entry.path.join('.')} (${[entry.title, entry.description].filter(Boolean).join(' | ')}) → ${predicted ?? 'none'}, labelled ${entry.role ?? 'none'}\n`,
          );
      }
      return figures;
    },
  },
];
