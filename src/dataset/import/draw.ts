/** `--limit N --seed S`: the same N documents for the same source and seed, kept in the source's order. */
import { createRandom } from '../../random.js';

export function drawDocuments<T>(items: readonly T[], limit: number | undefined, seed: number): T[] {
  if (limit === undefined || limit >= items.length) return [...items];
  const random = createRandom(seed);
  // A partial Fisher–Yates shuffle of the positions picks `limit` of them uniformly.
  const positions = items.map((_, index) => index);
  for (let index = 0; index < limit; index += 1) {
    const other = index + Math.floor(random() * (positions.length - index));
    [positions[index], positions[other]] = [positions[other] as number, positions[index] as number];
  }
  return positions
    .slice(0, limit)
    .sort((a, b) => a - b)
    .map((position) => items[position] as T);
}
