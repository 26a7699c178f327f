/** formatCount groups integers itself; it must write exactly what `toLocaleString('en-US')` writes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/render/format-number.js';

describe('formatCount', () => {
  it('equals toLocaleString("en-US") for every integer, negative, zero and non-integer value', () => {
    for (const value of [0, -0, 1, 999, 1000, -1000, 123_456_789, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER])
      expect(formatCount(value), String(value)).toBe(value.toLocaleString('en-US'));
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.double()), (value) => {
        expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
  });
});
