/**
 * Bounded look-ahead over a list: `fn` runs on up to `limit` items at once, and the results come back in the
 * list's order. Dataset validation uses it to check documents whose files need the disk (links, paths the
 * walk did not list) several at a time, while memory holds at most `limit` results.
 */
export async function* mapAhead<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): AsyncGenerator<R> {
  const window: Promise<R>[] = [];
  let next = 0;
  const fill = () => {
    while (next < items.length && window.length < limit) {
      const index = next++;
      const started = fn(items[index]!, index);
      // Awaited below, in order; until then a rejection must not count as unhandled.
      started.catch(() => undefined);
      window.push(started);
    }
  };
  fill();
  while (window.length > 0) {
    const result = await window.shift()!;
    fill();
    yield result;
  }
}

/** Every result of `mapAhead`, in order. */
export async function mapInOrder<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for await (const result of mapAhead(items, limit, fn)) results.push(result);
  return results;
}
