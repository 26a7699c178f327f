/**
 * The block metrics (OmniDocBench's quick matching, docs/metrics.md "Blocks") on 1,000 pages of 40 truth
 * blocks: the matching is quadratic in blocks per page at worst, so the time per page is what is printed.
 * Each output page reads its blocks with the faults the matching exists for: two blocks swapped, one split
 * in two, two merged, one dropped, one extra, and a few characters changed everywhere.
 */
import type { BenchCase, BenchFigure } from '../harness.js';
import { createRandom } from '../../src/random.js';
import { scorePageBlocks, type TruthBlock } from '../../src/score/index.js';

const WORDS =
  'the committee budget annual review library department proposal figures surplus quarter meeting vote public consultation members cost rising old merge'.split(
    ' ',
  );
const PAGES = Number(process.env.BLOCK_PAGES ?? 1000);
const BLOCKS = 40;

function paragraph(random: () => number): string {
  const words = 20 + Math.floor(random() * 40);
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

function mutate(text: string, random: () => number): string {
  return [...text].map((ch) => (random() < 0.02 ? 'x' : ch)).join('');
}

function makePage(random: () => number): { truth: TruthBlock[]; output: string } {
  const texts = Array.from({ length: BLOCKS }, () => paragraph(random));
  const truth = texts.map((content, index) => ({ category: 'text_block', order: index + 1, content }));
  const read = texts.map((text) => mutate(text, random));
  [read[3], read[4]] = [read[4]!, read[3]!];
  const words = read[10]!.split(' ');
  read.splice(10, 1, words.slice(0, words.length / 2).join(' '), words.slice(words.length / 2).join(' '));
  read.splice(20, 2, `${read[20]} ${read[21]}`);
  read.splice(30, 1);
  read.push(paragraph(random));
  return { truth, output: read.join('\n\n') };
}

export const cases: BenchCase[] = [
  {
    id: 'score-blocks',
    title: `block metrics: ${PAGES} pages of ${BLOCKS} blocks (quick matching)`,
    async run(): Promise<BenchFigure[]> {
      const random = createRandom(52);
      const pages = Array.from({ length: PAGES }, () => makePage(random));
      const started = performance.now();
      let readingOrder = 0;
      for (const page of pages) readingOrder += scorePageBlocks(page.truth, page.output).readingOrder?.edits ?? 0;
      const elapsed = performance.now() - started;
      return [
        {
          name: 'time per page',
          value: elapsed / PAGES,
          unit: 'ms',
          note: `${PAGES} pages in ${(elapsed / 1000).toFixed(1)} s`,
        },
        {
          name: 'reading-order edits per page',
          value: readingOrder / PAGES,
          unit: 'ratio',
          note: 'a check that the faults were seen',
        },
      ];
    },
  },
];
