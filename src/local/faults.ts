/** Seeded fault choice: the same seed and request order give the same faults, so drills are repeatable. */
import type { FaultMode, FaultOptions } from './options.js';

/** mulberry32: a tiny, well-known 32-bit PRNG; enough for picking faults, not for anything secret. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Returns a function that decides, per request, whether and how to fail. */
export function createFaultPicker(options: (FaultOptions & { modes: FaultMode[] }) | undefined): () => FaultMode | null {
  if (!options || options.rate <= 0) return () => null;
  const random = createRandom(options.seed);
  return () => {
    const roll = random();
    const pick = random();
    if (roll >= options.rate) return null;
    return options.modes[Math.min(options.modes.length - 1, Math.floor(pick * options.modes.length))]!;
  };
}
