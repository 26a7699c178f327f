/** Seeded fault choice: the same seed and request order give the same faults, so drills are repeatable. */
import type { FaultMode, FaultOptions } from './options.js';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Returns a function that decides, per request, whether and how to fail. */
export function createFaultPicker(
  options: (FaultOptions & { modes: FaultMode[] }) | undefined,
): () => FaultMode | null {
  if (!options || options.rate <= 0) return () => null;
  const generator = xoroshiro128plus(options.seed);
  const random = () => uniformFloat64(generator);
  return () => {
    const roll = random();
    const pick = random();
    if (roll >= options.rate) return null;
    return options.modes[Math.min(options.modes.length - 1, Math.floor(pick * options.modes.length))]!;
  };
}
