/**
 * Markdown scoring against its floor: the plain fast-levenshtein call on the same page strings. The scorer
 * adds NFC + character filtering (linear) and, by definition, a second distance on the raw texts, so three
 * ratios are printed: the whole scorer against one raw call (the floor), the whole scorer against
 * the two calls the metric needs (raw + normalised), and the normalised path alone against one raw call.
 */
import levenshtein from 'fast-levenshtein';
import type { BenchCase, BenchFigure } from '../harness.js';
import { createRandom } from '../../src/random.js';
import { normalizeForSimilarity, scoreMarkdownPages, scoreTextPair } from '../../src/score/markdown/index.js';

const WORDS =
  'invoice claim patient member provider total amount due date service units charge payer address café résumé Müller naïve'.split(
    ' ',
  );

/** A markdown-like page of exactly `length` characters: headings, paragraphs, a pipe table, money. */
function makePage(length: number, random: () => number): string {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
  let text = '';
  while (text.length < length) {
    const r = random();
    if (r < 0.05) text += `\n## ${pick()} ${Math.floor(random() * 100)}\n\n`;
    else if (r < 0.15)
      text += `| ${Math.floor(random() * 99999)} | ${pick()} ${pick()} | $${(random() * 1000).toFixed(2)} |\n`;
    else if (r < 0.2) text += `**${pick()}:** $${(random() * 10000).toFixed(2)}\n`;
    else text += `${pick()}${random() < 0.1 ? '.\n' : ' '}`;
  }
  return text.slice(0, length);
}

/** The page as a service might return it: about `rate` of the characters substituted, dropped or doubled. */
function mutate(page: string, rate: number, random: () => number): string {
  let out = '';
  for (const ch of page) {
    const r = random();
    if (r < rate / 3) continue;
    if (r < (2 * rate) / 3) out += 'x';
    else if (r < rate) out += ch + ch;
    else out += ch;
  }
  return out;
}

/**
 * Median time of each function, the functions run in turn within every round: a ratio of two medians taken
 * minutes apart on a shared 2-core machine measures the load as much as the code.
 */
function interleavedMedians(fns: (() => unknown)[], rounds: number): number[] {
  const times = fns.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    fns.forEach((fn, k) => {
      const t0 = performance.now();
      fn();
      times[k]!.push(performance.now() - t0);
    });
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
}

async function measure(label: string, truth: string[], predicted: string[], rounds: number): Promise<BenchFigure[]> {
  const normalizedTruth = truth.map(normalizeForSimilarity);
  const normalizedPredicted = predicted.map(normalizeForSimilarity);
  const [floor, bothCalls, normalizedOnly, scorer] = interleavedMedians(
    [
      () =>
        predicted.forEach((p, i) => {
          levenshtein.get(p, truth[i]!);
        }),
      () => {
        predicted.forEach((p, i) => {
          levenshtein.get(p, truth[i]!);
        });
        normalizedPredicted.forEach((p, i) => {
          levenshtein.get(p, normalizedTruth[i]!);
        });
      },
      () =>
        predicted.forEach((p, i) => {
          scoreTextPair(normalizeForSimilarity(p), normalizeForSimilarity(truth[i]!), 'bench');
        }),
      () => scoreMarkdownPages(predicted, truth),
    ],
    rounds,
  ) as [number, number, number, number];
  return [
    { name: `${label}: fast-levenshtein on the raw pages (floor)`, value: floor, unit: 'ms' },
    { name: `${label}: scoreMarkdownPages`, value: scorer, unit: 'ms' },
    {
      name: `${label}: scorer / floor`,
      value: scorer / floor,
      unit: 'x',
      target: { op: '<=', value: 1.5 },
      note: 'the scorer runs two distances by definition: normalised and raw',
    },
    {
      name: `${label}: scorer / (raw + normalised fast-levenshtein calls)`,
      value: scorer / bothCalls,
      unit: 'x',
      target: { op: '<=', value: 1.5 },
      note: 'overhead of normalisation, code-point handling and bookkeeping',
    },
    {
      name: `${label}: normalised similarity alone / floor`,
      value: normalizedOnly / floor,
      unit: 'x',
      target: { op: '<=', value: 1.5 },
      note: 'normalised strings are shorter than the raw ones',
    },
  ];
}

export const cases: BenchCase[] = [
  {
    id: 'score-markdown',
    title: 'Markdown scoring against plain fast-levenshtein (50 pages × 3,000 chars; one 100,000-char page)',
    async run() {
      const random = createRandom(20240305);
      const truthPages = Array.from({ length: 50 }, () => makePage(3000, random));
      const predictedPages = truthPages.map((page) => mutate(page, 0.03, random));
      const bigTruth = makePage(100_000, random);
      const bigPredicted = mutate(bigTruth, 0.03, random);
      // warm the JIT on the small case before anything is timed
      scoreMarkdownPages(predictedPages, truthPages);
      return [
        ...(await measure('50 × 3,000 chars', truthPages, predictedPages, 21)),
        // O(n·m/32) bit-parallel: one 100k × 100k call takes seconds, so fewer repetitions
        ...(await measure('1 × 100,000 chars', [bigTruth], [bigPredicted], 3)),
      ];
    },
  },
];
