import { describe, expect, it } from 'vitest';
import { formatFieldPath, getAtPath, parseFieldPath, setAtPath } from '../../src/view/field-path.js';
import type { JsonObject } from '../../src/types.js';

describe('field paths', () => {
  it('reads the paths the scorer writes', () => {
    const truth: JsonObject = { patient: { name: 'A' }, codes: [{ units: 1 }, { units: 2 }], dx: ['N39.0'] };
    expect(getAtPath(truth, parseFieldPath('patient.name'))).toBe('A');
    expect(getAtPath(truth, parseFieldPath('codes[1].units'))).toBe(2);
    expect(getAtPath(truth, parseFieldPath('dx[0]'))).toBe('N39.0');
    expect(getAtPath(truth, parseFieldPath('codes[5].units'))).toBeUndefined();
    expect(formatFieldPath(parseFieldPath('codes[1].units'))).toBe('codes[1].units');
  });

  it('sets a value, creating what is missing, and refuses a change of structure', () => {
    const truth: JsonObject = { codes: [{ units: 1 }] };
    setAtPath(truth, parseFieldPath('codes[0].modifier'), '25');
    setAtPath(truth, parseFieldPath('codes[2].units'), 3);
    setAtPath(truth, parseFieldPath('payer.name'), 'X');
    expect(truth).toEqual({ codes: [{ units: 1, modifier: '25' }, null, { units: 3 }], payer: { name: 'X' } });
    expect(() => setAtPath(truth, parseFieldPath('codes.units'), 1)).toThrow(/step 2 of codes.units expects an object/);
  });

  it('refuses paths the scorer could not have written', () => {
    for (const bad of ['', '.a', 'codes[].cpt', 'a..b', '__proto__.x', 'a.constructor'])
      expect(() => parseFieldPath(bad)).toThrow();
  });
});
