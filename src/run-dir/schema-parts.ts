/** JSON Schema pieces the run files' shape checks share. */
import { MODES } from '../types.js';

export const num = { type: 'number' } as const;
export const nullableNum = { type: ['number', 'null'] } as const;
export const nonNegative = { type: 'number', minimum: 0 } as const;
/** A count of things: a whole number, zero or more. */
export const count = { type: 'integer', minimum: 0 } as const;
/** A rate or score in [0, 1]. */
export const share = { type: 'number', minimum: 0, maximum: 1 } as const;
export const nullableShare = { type: ['number', 'null'], minimum: 0, maximum: 1 } as const;
export const nullableString = { type: ['string', 'null'] } as const;
/** An object keyed by extract mode (`fast`, `slow`). */
export const modeKeys = { propertyNames: { enum: [...MODES] } } as const;
