/** Seeded fault choice: the same seed and request order give the same faults, so drills are repeatable. */
import type { FaultMode, FaultOptions } from './options.js';
import { createRandom } from '../random.js';

/** Returns a function that decides, per request, whether and how to fail. */
export function createFaultPicker(
  options: (FaultOptions & { modes: FaultMode[] }) | undefined,
): () => FaultMode | null {
  if (!options || options.rate <= 0) return () => null;
  const random = createRandom(options.seed);
  return () => {
    const roll = random();
    const pick = random();
    if (roll >= options.rate) return null;
    return options.modes[Math.min(options.modes.length - 1, Math.floor(pick * options.modes.length))]!;
  };
}
