/**
 * The optimised scorer returns exactly what the frozen one (test/score/oracle, commit d96fef2) returns: every
 * count, field (path, prediction path, verdicts, error, comparator, anls), item count, ANLS* and normalisation
 * record — on random documents built to hit the hard cases of line-item matching: duplicates and ties,
 * missing and invented items, money on both sides of the tolerance, dates in several formats, nested lists,
 * and free text with small edits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anlsStar, scoreExtraction } from '../../src/score/extraction/index.js';
import type { ScoreExtractionOptions } from '../../src/score/extraction/index.js';
import type { Json, JsonObject } from '../../src/types.js';
import { anlsStarOracle, scoreExtractionOracle } from './oracle/index.js';

function expectSameAsOracle(truth: Json, prediction: Json | undefined, options?: ScoreExtractionOptions): void {
  const expected = scoreExtractionOracle(truth, prediction, options);
  const actual = scoreExtraction(truth, prediction, options);
  expect(actual).toStrictEqual(expected);
}

const CPT = ['99213', '85025', '36415', ' 99213', '99213 ', 'a0428'];
// Amounts in thousandths, so base ± 4, 5 or 6 thousandths is written exactly (never float arithmetic in text).
const BASE_MILLIS = [10_000, 12_500, 12_505, 99_990, 100_000, 1_000_000, 0];
const TOLERANCE_EDGES = [0, 4, -4, 5, -5, 6, -6, 10, 1000];
const DESCRIPTIONS = [
  'Office visit, established patient, level 3 of 5',
  'Complete blood count with automated differential WBC',
  'Routine venipuncture for collection of specimen',
  'Comprehensive metabolic panel including glucose test',
];

/** A money value written as a JSON number, a plain string, a `$` string, a grouped string or a negative in brackets. */
function writeMoney(millis: number, style: number): Json {
  const text = (Math.abs(millis) / 1000).toFixed(3).replace(/0$/u, '');
  const signed = millis < 0 ? `-${text}` : text;
  switch (style) {
    case 0:
      return Number(signed);
    case 1:
      return signed;
    case 2:
      return `$${signed}`;
    case 3:
      return millis < 0
        ? `(${text})`
        : `USD ${Number(text).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 3 })}`;
    default:
      return `${signed} EUR`;
  }
}

/** 2024-MM-DD in one of several formats (ISO, US slashes, month name, day-first, compact, garbage). */
function writeDate(month: number, day: number, style: number): string {
  const mm = String(month).padStart(2, '0');
  const dd = String(day).padStart(2, '0');
  const names = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'];
  switch (style) {
    case 0:
      return `2024-${mm}-${dd}`;
    case 1:
      return `${mm}/${dd}/2024`;
    case 2:
      return `${names[month - 1]} ${day}, 2024`;
    case 3:
      return `${day} ${names[month - 1]} 2024`;
    case 4:
      return `2024${mm}${dd}`;
    case 5:
      return `${dd}.${mm}.2024`;
    default:
      return `sometime in ${names[month - 1]}`;
  }
}

/** A small edit of free text: substitute, delete or insert one character, change case or double a space. */
function editText(text: string, kind: number, at: number): string {
  const i = at % text.length;
  switch (kind) {
    case 0:
      return text;
    case 1:
      return `${text.slice(0, i)}x${text.slice(i + 1)}`;
    case 2:
      return text.slice(0, i) + text.slice(i + 1);
    case 3:
      return `${text.slice(0, i)}q${text.slice(i)}`;
    case 4:
      return text.toUpperCase();
    case 5:
      return text.replace(' ', '  ');
    default:
      return text.slice(0, Math.max(1, i));
  }
}

interface ItemSeed {
  cpt: number;
  units: number | null;
  money: number;
  moneyStyle: number;
  month: number;
  day: number;
  dateStyle: number;
  description: number;
  modifiers: (string | number)[];
  adjustments: { group: string; millis: number; style: number }[];
  flag: boolean | string | null;
  drop: number;
}

const itemSeed: fc.Arbitrary<ItemSeed> = fc.record({
  cpt: fc.nat({ max: CPT.length - 1 }),
  units: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 6 }),
  money: fc.nat({ max: BASE_MILLIS.length - 1 }),
  moneyStyle: fc.nat({ max: 4 }),
  month: fc.integer({ min: 1, max: 3 }),
  day: fc.integer({ min: 1, max: 4 }),
  dateStyle: fc.nat({ max: 6 }),
  description: fc.nat({ max: DESCRIPTIONS.length - 1 }),
  // The same value as a number and as a string: one strict pair, one format-only pair.
  modifiers: fc.array(fc.constantFrom('25', 25, '59', 'LT', ' lt', ''), { maxLength: 3 }),
  adjustments: fc.array(
    fc.record({
      group: fc.constantFrom('CO', 'PR', 'co'),
      millis: fc.constantFrom(0, 5_000, 5_004, 5_005, 5_006, -5_000),
      style: fc.nat({ max: 2 }),
    }),
    { maxLength: 2 },
  ),
  flag: fc.constantFrom(true, false, 'yes', 'N', null, 'maybe'),
  // Which key, if any, the item lacks (index into the key list; past the end: none).
  drop: fc.nat({ max: 12 }),
});

const KEYS = ['cpt', 'units', 'charge', 'dos', 'description', 'modifiers', 'adjustments', 'covered'];

function buildItem(seed: ItemSeed): JsonObject {
  const item: JsonObject = {
    cpt: CPT[seed.cpt]!,
    units: seed.units,
    charge: writeMoney(BASE_MILLIS[seed.money]!, seed.moneyStyle),
    dos: writeDate(seed.month, seed.day, seed.dateStyle),
    description: DESCRIPTIONS[seed.description]!,
    modifiers: seed.modifiers,
    adjustments: seed.adjustments.map((a) => ({ group: a.group, amount: writeMoney(a.millis, a.style) })),
    covered: seed.flag,
  };
  if (seed.drop < KEYS.length) delete item[KEYS[seed.drop]!];
  return item;
}

interface Edit {
  source: number;
  moneyDelta: number;
  moneyStyle: number;
  dateStyle: number;
  unitsDelta: number;
  textEdit: number;
  textAt: number;
  swapKeyOrder: boolean;
  drop: number;
}

const edit: fc.Arbitrary<Edit> = fc.record({
  source: fc.nat({ max: 40 }),
  moneyDelta: fc.nat({ max: TOLERANCE_EDGES.length - 1 }),
  moneyStyle: fc.nat({ max: 4 }),
  dateStyle: fc.nat({ max: 6 }),
  unitsDelta: fc.constantFrom(0, 0, 0, 1),
  textEdit: fc.nat({ max: 6 }),
  textAt: fc.nat({ max: 60 }),
  swapKeyOrder: fc.boolean(),
  drop: fc.nat({ max: 14 }),
});

/** A predicted item copied from a truth item (chosen by `source`, with repeats: duplicates) and edited. */
function predictItem(truthSeeds: ItemSeed[], e: Edit): JsonObject {
  const seed = truthSeeds[e.source % truthSeeds.length]!;
  const item = buildItem({
    ...seed,
    moneyStyle: e.moneyStyle,
    dateStyle: e.dateStyle,
    units: seed.units === null ? null : seed.units + e.unitsDelta,
    drop: e.drop,
  });
  if ('charge' in item)
    item.charge = writeMoney(BASE_MILLIS[seed.money]! + TOLERANCE_EDGES[e.moneyDelta]!, e.moneyStyle);
  if ('description' in item) item.description = editText(DESCRIPTIONS[seed.description]!, e.textEdit, e.textAt);
  if (!e.swapKeyOrder) return item;
  return Object.fromEntries(Object.entries(item).reverse()) as JsonObject;
}

const optionsArbitrary: fc.Arbitrary<ScoreExtractionOptions> = fc.record(
  {
    comparators: fc.constantFrom<ScoreExtractionOptions['comparators']>(
      {},
      { 'lines[].charge': { type: 'money', tolerance: 0.01 } },
      { 'lines[].charge': { type: 'number' }, 'lines[].units': 'string' },
      { 'lines[].charge': 'exact', 'lines[].cpt': 'string', 'lines[].description': 'text' },
      { 'lines[].dos': 'string', 'lines[].adjustments[].amount': { type: 'money', tolerance: 0 } },
      { 'lines[].cpt': { type: 'code', caseSensitive: true } },
    ),
    longTextMinLength: fc.constantFrom(10, 40, 60, Number.POSITIVE_INFINITY),
    anlsThreshold: fc.constantFrom(0.3, 0.5, 0.95),
    locale: fc.constantFrom<'US' | 'EU'>('US', 'EU'),
  },
  { requiredKeys: [] },
);

const documentArbitrary = fc
  .record({
    truth: fc.array(itemSeed, { maxLength: 7 }),
    edits: fc.array(edit, { maxLength: 9 }),
    invented: fc.array(itemSeed, { maxLength: 2 }),
    order: fc.array(fc.nat(), { maxLength: 12 }),
    total: fc.nat({ max: TOLERANCE_EDGES.length - 1 }),
    options: optionsArbitrary,
  })
  .map(({ truth, edits, invented, order, total, options }) => {
    const predicted = truth.length > 0 ? edits.map((e) => predictItem(truth, e)) : [];
    predicted.push(...invented.map(buildItem));
    const shuffled = predicted
      .map((item, i) => ({ item, key: (order[i] ?? i) + i / 1000 }))
      .sort((a, b) => a.key - b.key)
      .map((e) => e.item);
    return {
      truth: {
        claim_id: 'C-1',
        total_charge: 1234.5,
        lines: truth.map(buildItem),
        codes: truth.map((t) => CPT[t.cpt]!),
      } as JsonObject,
      prediction: {
        claim_id: 'c-1',
        total_charge: writeMoney(1_234_500 + TOLERANCE_EDGES[total]!, 2),
        lines: shuffled,
        codes: shuffled.map((item) => item.cpt ?? null),
      } as JsonObject,
      options,
    };
  });

/** A bench-like claim: many items, few distinct values (so many ties), shuffled with small edits. */
function makeClaim(count: number, seed: number): { truth: JsonObject; prediction: JsonObject } {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const lines = Array.from({ length: count }, (_, i) => ({
    cpt: CPT[Math.floor(random() * 3)]!,
    units: 1 + Math.floor(random() * 2),
    charge: Math.round(random() * 400) / 100,
    dos: `2024-03-${String(1 + (i % 5)).padStart(2, '0')}`,
    modifiers: random() < 0.3 ? ['25'] : [],
    description: DESCRIPTIONS[i % DESCRIPTIONS.length]!,
  }));
  const predicted = lines
    .filter((_, i) => i % 13 !== 5)
    .map((line) => {
      const copy: JsonObject = {
        ...line,
        charge: `$${(line.charge + (random() < 0.2 ? 0.005 : 0)).toFixed(3)}`,
        dos: line.dos.replace(/^(\d+)-(\d+)-(\d+)$/u, '$2/$3/$1'),
      };
      if (random() < 0.2) copy.units = line.units + 1;
      if (random() < 0.2)
        copy.description = editText(line.description, 1 + Math.floor(random() * 5), Math.floor(random() * 40));
      return copy;
    });
  predicted.push({ ...predicted[0]!, cpt: '99999' }, { ...predicted[1]! });
  for (let i = predicted.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [predicted[i], predicted[j]] = [predicted[j]!, predicted[i]!];
  }
  return { truth: { lines }, prediction: { lines: predicted } };
}

describe('scoreExtraction agrees exactly with the frozen scorer', () => {
  it('on random claims with duplicates, ties, missing and invented items, tolerance edges, dates, nested lists and edited text', () => {
    fc.assert(
      fc.property(documentArbitrary, ({ truth, prediction, options }) =>
        expectSameAsOracle(truth, prediction, options),
      ),
      { numRuns: 200 },
    );
  });

  it('on random JSON of any shape (lists of lists, mixed items, shape mismatches)', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    // A short free-text length makes most strings free text, so ANLS* sees every shape too.
    fc.assert(
      fc.property(value, value, fc.constantFrom(2, 40), (truth, prediction, longTextMinLength) =>
        expectSameAsOracle(truth as Json, prediction as Json, { longTextMinLength }),
      ),
      { numRuns: 300 },
    );
  });

  it('on lists whose items mix objects, scalars and lists, and on empty and parse-failed predictions', () => {
    const element = fc.oneof(
      fc.record(
        { a: fc.constantFrom(1, '1', 'x', null), b: fc.array(fc.constantFrom(1, 2, '2'), { maxLength: 2 }) },
        { requiredKeys: [] },
      ),
      fc.constantFrom(1, 'x', null, '', [], {}),
      fc.array(fc.record({ a: fc.constantFrom(1, 2) }), { maxLength: 2 }),
    );
    const list = fc.array(element, { maxLength: 6 });
    fc.assert(
      fc.property(list, list, fc.boolean(), (truth, prediction, failed) =>
        expectSameAsOracle({ items: truth } as Json, { items: prediction } as Json, { parseFailure: failed }),
      ),
      { numRuns: 200 },
    );
    expectSameAsOracle({ items: [{ a: 1 }] }, undefined);
    expectSameAsOracle({}, {});
  });

  it('on bench-sized claims (60 and 120 items, few distinct values)', () => {
    for (const [count, seed] of [
      [60, 1],
      [120, 2],
    ] as const) {
      const { truth, prediction } = makeClaim(count, seed);
      expectSameAsOracle(truth, prediction);
      expectSameAsOracle(truth, prediction, { longTextMinLength: Number.POSITIVE_INFINITY });
    }
  });
});

describe('scoreExtraction agrees exactly with the frozen scorer beyond the memo sizes', () => {
  it('on 100 items told apart only by amounts a cent apart (edited by half a cent: within tolerance of two) and by nested lists', () => {
    // More distinct amounts and sub-trees per side than item-matrix.ts memoises, so its unmemoised paths decide.
    let state = 5;
    const random = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    const truth = Array.from({ length: 100 }, (_, k) => ({
      code: 'A',
      amount: (100 + k) / 100,
      parts: [{ v: k }, { v: k % 7 }],
    }));
    const prediction = truth.map(({ amount, parts }, k) => ({
      code: random() < 0.1 ? 'B' : 'A',
      amount: `$${(amount + [0, 0.005, -0.005, 0.004, 0.006][Math.floor(random() * 5)]!).toFixed(3)}`,
      parts: random() < 0.5 ? parts : [{ v: k + 1 }, { v: k % 5 }],
    }));
    prediction.reverse();
    expectSameAsOracle({ items: truth }, { items: prediction });
  });
});

describe('anlsStar agrees exactly with the frozen one', () => {
  it('on lists of flat dicts with nulls, empty strings, missing and extra keys, and edited text', () => {
    const text = fc
      .tuple(fc.nat({ max: DESCRIPTIONS.length - 1 }), fc.nat({ max: 6 }), fc.nat({ max: 60 }))
      .map(([d, kind, at]) => editText(DESCRIPTIONS[d]!, kind, at));
    const value = fc.oneof(text, fc.constantFrom(null, '', 'x', 'X ', 12, true));
    const dict = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), value, { maxKeys: 4 });
    const list = fc.array(dict, { maxLength: 7 });
    fc.assert(
      fc.property(list, list, fc.constantFrom(0.3, 0.5, 0.9), (truth, prediction, threshold) => {
        expect(anlsStar(truth, prediction, threshold)).toBe(anlsStarOracle(truth, prediction, threshold));
        expect(anlsStar({ items: truth }, { items: prediction, extra: prediction[0] ?? null }, threshold)).toBe(
          anlsStarOracle({ items: truth }, { items: prediction, extra: prediction[0] ?? null }, threshold),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('on random JSON of any shape', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(value, value, (truth, prediction) => {
        expect(anlsStar(truth as Json, prediction as Json)).toBe(anlsStarOracle(truth as Json, prediction as Json));
      }),
      { numRuns: 300 },
    );
  });
});
