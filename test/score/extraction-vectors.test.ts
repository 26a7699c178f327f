import { describe, expect, it } from 'vitest';
import { scoreExtraction } from '../../src/score/extraction/index.js';
import type { Json, JsonSchema } from '../../src/types.js';

const C2 = [
  { cpt: '99213', units: 1 },
  { cpt: '85025', units: 2 },
];

function counts(truth: Json, prediction: Json, options = {}) {
  const score = scoreExtraction(truth, prediction, options);
  return {
    tp: score.tp,
    fp: score.fp,
    fn: score.fn,
    f1: score.f1,
    strict: [score.strict.tp, score.strict.fp, score.strict.fn],
  };
}

describe('docs/metrics/extraction.md vectors (normalised pass)', () => {
  it('number vs formatted string is 2/0/0 → 1.0, strict 1/1/1 → 0.5', () => {
    const score = scoreExtraction({ name: 'John Smith', total: 125.5 }, { name: 'John Smith', total: '125.50' });
    expect([score.tp, score.fp, score.fn, score.f1]).toEqual([2, 0, 0, 1]);
    expect([score.strict.tp, score.strict.fp, score.strict.fn, score.strict.f1]).toEqual([1, 1, 1, 0.5]);
    expect(score.fields.find((f) => f.path === 'total')?.error).toBe('format_only');
  });

  it('a null truth field with the key absent in the prediction is not counted: 1/0/0', () => {
    expect(counts({ a: 'x', b: null }, { a: 'x' })).toMatchObject({ tp: 1, fp: 0, fn: 0, f1: 1 });
  });

  it('an extra key declared in the schema is a false positive: 2/1/0 → 0.8', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } },
    };
    const score = scoreExtraction({ a: 'x', b: 'y' }, { a: 'x', b: 'y', c: 'z' }, { schema });
    expect([score.tp, score.fp, score.fn]).toEqual([2, 1, 0]);
    expect(score.f1).toBeCloseTo(0.8, 12);
    expect(score.fields.find((f) => f.path === 'c')?.error).toBe('hallucinated');
  });

  it('line items in reverse order score 4/0/0 → 1.0', () => {
    expect(counts({ codes: C2 }, { codes: [...C2].reverse() })).toMatchObject({ tp: 4, fp: 0, fn: 0, f1: 1 });
  });

  it('one wrong unit in the second item scores 3/1/1 → 0.75', () => {
    expect(counts({ codes: C2 }, { codes: [C2[0]!, { cpt: '85025', units: 3 }] })).toMatchObject({
      tp: 3,
      fp: 1,
      fn: 1,
      f1: 0.75,
    });
  });

  it('a missing third item scores 4/0/2 → P 1, R 2/3, F1 0.8', () => {
    const score = scoreExtraction({ codes: [...C2, { cpt: '36415', units: 1 }] }, { codes: C2 });
    expect([score.tp, score.fp, score.fn]).toEqual([4, 0, 2]);
    expect(score.precision).toBe(1);
    expect(score.recall).toBeCloseTo(0.667, 3);
    expect(score.f1).toBeCloseTo(0.8, 12);
    expect(score.items).toEqual({ truth: 3, predicted: 2, exact: 2, countError: 1 });
  });

  it('an ISO date vs a US date is 1/0/0, strict 0/1/1', () => {
    expect(counts({ dos: '2024-03-05' }, { dos: '03/05/2024' })).toMatchObject({
      tp: 1,
      fp: 0,
      fn: 0,
      strict: [0, 1, 1],
    });
  });

  it('the same date vector holds with a schema that says format: date on a neutral name', () => {
    const schema: JsonSchema = { type: 'object', properties: { when: { type: 'string', format: 'date' } } };
    expect(counts({ when: '2024-03-05' }, { when: '03/05/2024' }, { schema })).toMatchObject({ tp: 1, fp: 0, fn: 0 });
  });

  it('units swapped between two items score 2/2/2 → 0.5 (no credit across items)', () => {
    const score = scoreExtraction(
      { codes: C2 },
      {
        codes: [
          { cpt: '99213', units: 2 },
          { cpt: '85025', units: 1 },
        ],
      },
    );
    expect([score.tp, score.fp, score.fn, score.f1]).toEqual([2, 2, 2, 0.5]);
    expect(score.items.exact).toBe(0);
  });
});

describe('scoreExtraction edge cases', () => {
  it('truth {} and prediction {} give P = R = F1 = 1 and an exact match', () => {
    const score = scoreExtraction({}, {});
    expect([score.precision, score.recall, score.f1, score.exactMatch]).toEqual([1, 1, 1, true]);
  });

  it('an empty prediction makes every truth leaf FN with P = R = F1 = 0', () => {
    const score = scoreExtraction({ a: 'x', b: { c: 1 } }, {});
    expect([score.tp, score.fp, score.fn, score.precision, score.recall, score.f1]).toEqual([0, 0, 2, 0, 0, 0]);
    expect(score.fields.filter((f) => f.error === 'missing').map((f) => f.path)).toEqual(['a', 'b.c']);
  });

  it('an empty truth makes every predicted leaf a hallucination', () => {
    const score = scoreExtraction({}, { a: 'x', list: ['p', 'q'] });
    expect([score.tp, score.fp, score.fn, score.f1]).toEqual([0, 3, 0, 0]);
    expect(score.fields.every((f) => f.error === 'hallucinated')).toBe(true);
  });

  it('treats null, "", whitespace, [], {} and all-empty objects as empty on both sides', () => {
    const truth = { a: null, b: '', c: [], d: {}, e: { f: null }, g: '  ' };
    const score = scoreExtraction(truth, { a: '', b: null, c: {}, d: [], e: null, g: null });
    expect([score.tp, score.fp, score.fn, score.f1]).toEqual([0, 0, 0, 1]);
    expect(score.fields.every((f) => f.verdict === 'tn')).toBe(true);
  });

  it('a failed call is scored as {} and flagged, whatever the prediction held', () => {
    const score = scoreExtraction({ a: 'x' }, { a: 'x' }, { parseFailure: true });
    expect([score.tp, score.fn, score.parseFailure]).toEqual([0, 1, true]);
    expect(scoreExtraction({ a: 'x' }, undefined).parseFailure).toBe(true);
    expect(scoreExtraction({ a: 'x' }, 'not json {').parseFailure).toBe(true);
    expect(scoreExtraction({ a: 'x' }, null).parseFailure).toBe(false);
  });

  it('type mismatches count the truth leaves as FN and the predicted leaf as FP, as wrong values', () => {
    const score = scoreExtraction(
      { address: { street: '1 Main St', city: 'Springfield' } },
      { address: '1 Main St, Springfield' },
    );
    expect([score.tp, score.fp, score.fn]).toEqual([0, 1, 2]);
    expect(score.fields.map((f) => [f.path, f.verdict, f.error])).toEqual([
      ['address.street', 'fn', 'wrong_value'],
      ['address.city', 'fn', 'wrong_value'],
      ['address', 'fp', 'wrong_value'],
    ]);
  });

  it('a boolean vs the string "yes" is equal normalised but not strictly', () => {
    const score = scoreExtraction({ signed: true }, { signed: 'Yes' });
    expect([score.tp, score.strict.tp, score.strict.fp]).toEqual([1, 0, 1]);
  });

  it('scalar arrays are multisets: order is free, duplicates must match in number', () => {
    expect(counts({ dx: ['E11.9', 'I10', 'I10'] }, { dx: ['I10', 'e11.9'] })).toMatchObject({ tp: 2, fp: 0, fn: 1 });
    expect(counts({ dx: ['a', 'b'] }, { dx: ['b', 'a', 'a'] })).toMatchObject({ tp: 2, fp: 1, fn: 0 });
  });

  it('scalar multiset pairing prefers strictly equal pairs, so the strict pass is not penalised by the pairing', () => {
    const score = scoreExtraction({ tags: ['a', 'A'] }, { tags: ['A', 'a'] });
    expect([score.tp, score.strict.tp]).toEqual([2, 2]);
  });

  it('nested line items are matched inside matched parents', () => {
    const truth = {
      claims: [
        {
          id: 'C1',
          lines: [
            { cpt: '99213', units: 1 },
            { cpt: '85025', units: 2 },
          ],
        },
        { id: 'C2', lines: [{ cpt: '36415', units: 1 }] },
      ],
    };
    const prediction = {
      claims: [
        { id: 'C2', lines: [{ cpt: '36415', units: 1 }] },
        {
          id: 'C1',
          lines: [
            { cpt: '85025', units: 2 },
            { cpt: '99213', units: 3 },
          ],
        },
      ],
    };
    const score = scoreExtraction(truth, prediction);
    expect([score.tp, score.fp, score.fn]).toEqual([7, 1, 1]);
    const wrong = score.fields.find((f) => f.error === 'wrong_value');
    expect(wrong).toMatchObject({
      path: 'claims[0].lines[0].units',
      predictionPath: 'claims[1].lines[1].units',
      collapsedPath: 'claims[].lines[].units',
    });
    expect(score.items).toEqual({ truth: 5, predicted: 5, exact: 3, countError: 0 });
  });

  it('arrays of arrays are matched as items', () => {
    expect(counts({ grid: [[1, 2], [3]] }, { grid: [[3], [2, 1]] })).toMatchObject({ tp: 3, fp: 0, fn: 0 });
  });

  it('an item sharing no value with any truth item is hallucinated, not a wrong value', () => {
    const score = scoreExtraction(
      { codes: [{ cpt: '99213', units: 1 }] },
      {
        codes: [
          { cpt: '99213', units: 1 },
          { cpt: '11111', units: 9 },
        ],
      },
    );
    expect(score.fields.filter((f) => f.verdict === 'fp').map((f) => f.error)).toEqual([
      'hallucinated',
      'hallucinated',
    ]);
  });

  it('compares unicode after NFKC, whitespace collapsing and case folding', () => {
    const score = scoreExtraction(
      { name: 'Ｊｏｈｎ  Straße', city: 'ÅRHUS' },
      { name: ' john strasse ', city: 'århus' },
    );
    expect([score.tp, score.strict.tp]).toEqual([2, 0]);
  });

  it('keeps a case-sensitive string comparator when the dataset asks for it', () => {
    expect(
      counts({ ref: 'AbC' }, { ref: 'abc' }, { comparators: { ref: { type: 'string', caseSensitive: true } } }),
    ).toMatchObject({ tp: 0 });
  });

  it('ignores keys outside the schema by default and lists them; counts them on request', () => {
    const schema: JsonSchema = { type: 'object', properties: { a: { type: 'string' } } };
    const ignored = scoreExtraction({ a: 'x' }, { a: 'x', extra: 'y', nested: { z: 1 } }, { schema });
    expect([ignored.tp, ignored.fp, ignored.unexpectedKeys]).toEqual([1, 0, ['extra', 'nested']]);
    const counted = scoreExtraction({ a: 'x' }, { a: 'x', extra: 'y' }, { schema, extraKeys: 'count' });
    expect([counted.tp, counted.fp, counted.unexpectedKeys]).toEqual([1, 1, []]);
  });

  it('without a schema every key counts', () => {
    expect(counts({ a: 'x' }, { a: 'x', extra: 'y' })).toMatchObject({ tp: 1, fp: 1 });
  });

  it('follows $ref, items and nullable types in the schema', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { codes: { type: 'array', items: { $ref: '#/$defs/line' } } },
      $defs: {
        line: { type: 'object', properties: { cpt: { type: 'string' }, charge: { type: ['number', 'null'] } } },
      },
    };
    const score = scoreExtraction(
      { codes: [{ cpt: '99213', charge: 100 }] },
      { codes: [{ cpt: '99213', charge: '$100.004', note: 'x' }] },
      { schema },
    );
    expect([score.tp, score.fp, score.fn]).toEqual([2, 0, 0]);
    expect(score.unexpectedKeys).toEqual(['codes[].note']);
    expect(score.normalization['codes[].charge']).toMatchObject({ comparator: 'money', source: 'schema' });
  });

  it('ICD-10 codes ignore dots only when the comparator says so', () => {
    expect(counts({ dx: ['E11.9'] }, { dx: ['e119'] })).toMatchObject({ tp: 0 });
    expect(
      counts({ dx: ['E11.9'] }, { dx: ['e119'] }, { comparators: { 'dx[]': { type: 'code', ignoreDots: true } } }),
    ).toMatchObject({ tp: 1 });
  });

  it('records the normalisation steps of every compared path', () => {
    const score = scoreExtraction({ name: 'x', total: 1 }, { name: 'x', total: 1 });
    expect(score.normalization.name).toEqual({
      comparator: 'string',
      source: 'default',
      steps: ['to-string', 'nfkc', 'trim', 'collapse-whitespace', 'casefold'],
    });
    expect(score.normalization.total?.steps).toContain('abs-diff<=0.005');
  });

  it('uses the EU locale for ambiguous dates when asked', () => {
    expect(counts({ dob: '2024-03-05' }, { dob: '05/03/2024' }, { locale: 'EU' })).toMatchObject({ tp: 1 });
    expect(counts({ dob: '2024-03-05' }, { dob: '05/03/2024' })).toMatchObject({ tp: 0 });
  });

  it('treats keys named like Object.prototype members as plain data', () => {
    const value = JSON.parse(
      '{"__proto__": "a", "constructor": "b", "valueOf": 1, "toString": "Some long free-text remark about this claim"}',
    ) as Json;
    const score = scoreExtraction(value, JSON.parse(JSON.stringify(value)) as Json);
    expect([score.tp, score.fp, score.fn, score.anls]).toEqual([4, 0, 0, 1]);
    expect(Object.keys(score.normalization)).toEqual(['__proto__', 'constructor', 'toString', 'valueOf']);
  });
});
