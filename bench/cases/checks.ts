/**
 * Rule checks at scale (docs/checks.md): 10,000 checks over 1,000 synthetic pages, decided as a run decides
 * them (decideCheck on each page's markdown): text present (half of them garbled, so they fail and search every
 * window), absent, order, table neighbours and the baseline. Prints the time per check.
 */
import type { BenchCase, BenchFigure } from '../harness.js';
import { createRandom } from '../../src/random.js';
import { decideCheck, parseCheck, type Check } from '../../src/checks/index.js';

const WORDS =
  'invoice claim patient member provider total amount due date service units charge payer address café résumé Müller naïve'.split(
    ' ',
  );

/** A page of about 3,000 characters: prose, a heading, a pipe table. */
function makePage(random: () => number): { text: string; sentences: string[]; cells: string[][] } {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)] as string;
  const sentences: string[] = [];
  for (let s = 0; s < 30; s++) sentences.push(Array.from({ length: 12 }, pick).join(' '));
  const cells = Array.from({ length: 6 }, (_, r) => Array.from({ length: 4 }, (_, c) => `${pick()} ${r}${c}`));
  const table = cells.map((row) => `| ${row.join(' | ')} |`);
  table.splice(1, 0, '|---|---|---|---|');
  const text = [
    `## ${pick()} report`,
    sentences.slice(0, 15).join('. '),
    table.join('\n'),
    sentences.slice(15).join('. '),
  ].join('\n\n');
  return { text, sentences, cells };
}

function garble(text: string, random: () => number): string {
  return [...text].map((ch) => (random() < 0.15 ? 'x' : ch)).join('');
}

export const cases: BenchCase[] = [
  {
    id: 'checks',
    title: 'Rule checks: 10,000 checks over 1,000 pages decided',
    async run(): Promise<BenchFigure[]> {
      const random = createRandom(7);
      const pages: string[] = [];
      const checks: Check[][] = [];
      for (let p = 0; p < 1000; p++) {
        const { text, sentences, cells } = makePage(random);
        pages.push(text);
        const own: Check[] = [];
        const base = { pdf: `doc${p}.pdf`, page: 1 };
        for (let k = 0; k < 4; k++) {
          const sentence = sentences[Math.floor(random() * sentences.length)] as string;
          const text = k % 2 === 0 ? sentence : garble(sentence, random);
          own.push(parseCheck({ ...base, id: `p${p}-present-${k}`, type: 'present', text, max_diffs: 2 }));
        }
        own.push(parseCheck({ ...base, id: `p${p}-absent`, type: 'absent', text: 'Downloaded from the archive' }));
        own.push(
          parseCheck({
            ...base,
            id: `p${p}-order`,
            type: 'order',
            before: sentences[2],
            after: sentences[20],
            max_diffs: 1,
          }),
        );
        for (let k = 0; k < 3; k++) {
          const r = 1 + Math.floor(random() * 5);
          const c = Math.floor(random() * 3);
          const row = cells[r] as string[];
          own.push(
            parseCheck({
              ...base,
              id: `p${p}-table-${k}`,
              type: 'table',
              cell: row[c],
              right: row[c + 1],
              top_heading: cells[0]?.[c],
            }),
          );
        }
        own.push(parseCheck({ ...base, id: `p${p}-baseline`, type: 'baseline' }));
        checks.push(own);
      }
      const total = checks.reduce((n, own) => n + own.length, 0);
      const started = performance.now();
      let passed = 0;
      checks.forEach((own, p) => {
        for (const check of own) if (decideCheck(check, [[pages[p] as string]]).status === 'passed') passed++;
      });
      const ms = performance.now() - started;
      return [
        { name: `${total} checks over 1,000 pages, decided`, value: ms, unit: 'ms', note: `${passed} passed` },
        { name: 'time per check', value: (ms * 1000) / total, unit: 'µs' },
      ];
    },
  },
];
