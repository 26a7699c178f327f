/** What a call cost in USD, from the system's price and what the call consumed. */
import type { Price, Usage } from './types.js';

/**
 * The sum of every price component that applies. Undefined when there is no price, or when a component's
 * quantity is unknown (a per-page price and no page count): an unknown cost is not a zero one.
 */
export function computeCost(
  price: Price | null,
  usage: Usage | undefined,
  pages: number | undefined,
): number | undefined {
  if (price === null) return undefined;
  let cost = price.perCall ?? 0;
  if (price.perPage !== undefined) {
    const count = usage?.pages ?? pages;
    if (count === undefined) return undefined;
    cost += price.perPage * count;
  }
  if (price.perMillionInputTokens !== undefined) {
    if (usage?.inputTokens === undefined) return undefined;
    cost += (price.perMillionInputTokens * usage.inputTokens) / 1e6;
  }
  if (price.perMillionOutputTokens !== undefined) {
    if (usage?.outputTokens === undefined) return undefined;
    cost += (price.perMillionOutputTokens * usage.outputTokens) / 1e6;
  }
  return cost;
}
