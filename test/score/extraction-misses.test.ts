import { describe, expect, it } from 'vitest';
import { aggregateExtraction, scoreExtraction } from '../../src/score/index.js';
import { microF1, sumMisses, toCounts } from '../../src/score/extraction/ratios.js';

const schema = {
  type: 'object',
  properties: {
    patient_name: { type: 'string' },
    service_date: { type: 'string', format: 'date' },
    total_charge: { type: 'number' },
    member_id: { type: 'string' },
    diagnoses: { type: 'array', items: { type: 'string' } },
  },
};

const truth = {
  patient_name: 'Maria Lopez',
  service_date: '2024-03-05',
  total_charge: 1234.5,
  member_id: 'XJ-4471',
  diagnoses: ['E11.9'],
};

describe('misses by where the truth value was', () => {
  it('finds each missed value as its comparator reads it, or says it is not in the text', () => {
    const pages = [
      '# Claim\n\n**Patient:** MARIA   lopez\n\nDate of service: March 5, 2024',
      '| Item | Amount |\n|---|---|\n| Total | $1,234.50 |\n\nMember: XJ-4417',
    ];
    const score = scoreExtraction(truth, { patient_name: 'Maria', total_charge: 1234.5 }, { schema, text: pages });
    const byPath = Object.fromEntries(score.fields.map((f) => [f.path, f]));
    // Wrong (fp+fn) and missing (fn) fields are both misses; the right total is not.
    expect(byPath.patient_name!.miss).toBe('in_text');
    expect(byPath.patient_name!.textMatch).toEqual({ page: 1, start: 22, end: 35 });
    expect(pages[0]!.slice(22, 35)).toBe('MARIA   lopez');
    expect(byPath.service_date!.miss).toBe('in_text');
    expect(pages[0]!.slice(byPath.service_date!.textMatch!.start, byPath.service_date!.textMatch!.end)).toBe(
      'March 5, 2024',
    );
    expect(byPath.total_charge!.miss).toBeUndefined();
    const bold = scoreExtraction({ total_charge: 7 }, {}, { schema, text: ['**Total:** **7.00**'] });
    expect(bold.fields[0]!.textMatch).toEqual({ page: 1, start: 13, end: 17 });
    // Garbled on the page: XJ-4417 is not XJ-4471.
    expect(byPath.member_id!.miss).toBe('not_in_text');
    expect(byPath.member_id!.textMatch).toBeUndefined();
    expect(byPath['diagnoses[0]']!.miss).toBe('not_in_text');
    expect(score.misses).toEqual({ not_in_text: 2, in_text: 2 });
    expect(score.misses!.not_in_text + score.misses!.in_text).toBe(score.fn);
  });

  it('claims nothing without markdown, and sums what was claimed', () => {
    const without = scoreExtraction(truth, {}, { schema });
    expect(without.misses).toBeNull();
    expect(without.fields.every((f) => f.miss === undefined)).toBe(true);
    const withText = scoreExtraction(truth, {}, { schema, text: ['Maria Lopez 1234.50'] });
    expect(withText.misses).toEqual({ not_in_text: 3, in_text: 2 });
    const aggregate = aggregateExtraction([without, withText]);
    expect(aggregate.misses).toEqual({ not_in_text: 3, in_text: 2 });
    expect(aggregate.byPath.find((p) => p.path === 'patient_name')!.misses).toEqual({ not_in_text: 0, in_text: 1 });
    expect(aggregateExtraction([without]).misses).toBeNull();
    expect(aggregateExtraction([without]).byPath[0]!.misses).toBeNull();
  });

  it('an empty page holds nothing', () => {
    const score = scoreExtraction(truth, {}, { schema, text: [''] });
    expect(score.misses).toEqual({ not_in_text: 5, in_text: 0 });
  });
});

describe('one formula for F1 from counts', () => {
  it('sums counts before the ratio, and reads a path counts tuple', () => {
    expect(microF1([toCounts([1, 0, 1]), toCounts([1, 2, 0]), toCounts(undefined)])).toBeCloseTo(4 / 7, 12);
    expect(microF1([])).toBe(1);
    expect(sumMisses([null, { not_in_text: 1, in_text: 2 }, { not_in_text: 3, in_text: 0 }])).toEqual({
      not_in_text: 4,
      in_text: 2,
    });
    expect(sumMisses([null])).toBeNull();
  });
});
