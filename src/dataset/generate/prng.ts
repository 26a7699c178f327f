/**
 * The sample generator's random choices: integers, picks, samples, named forks and normal draws, all built on
 * the shared seeded stream (src/random.ts). The sequence must never change across versions, or the committed
 * sample's hashes would (a test regenerates the sample and compares them).
 */
import { createRandom as createUniform } from '../../random.js';

/** Uniform draws and the helpers built on them; every random choice of the generator goes through one. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Uniform in [min, max). */
  float(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** An independent stream for a named purpose, so adding a draw in one place does not shift the others. */
  fork(label: string): Random;
  /** Standard normal draw (Box–Muller). */
  gaussian(): number;
}

/** FNV-1a over a string: turns fork labels into 32-bit seeds. */
function hashLabel(label: string, seed: number): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The generator's Random over the shared mulberry32 stream (src/random.ts). */
export function createRandom(seed: number): Random {
  const next = createUniform(seed);
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    sample: (items, count) => {
      const pool = [...items];
      for (let i = pool.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      }
      return pool.slice(0, Math.min(count, pool.length));
    },
    fork: (label) => createRandom(hashLabel(label, seed)),
    gaussian: () => {
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
  return random;
}
