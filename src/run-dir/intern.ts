/**
 * One string object per distinct value. JSON.parse and string building give every record and field its own
 * copy of the same few values ("tp", "extract", a field path); a large run keeps hundreds of thousands of
 * them for aggregation, so the copies are replaced by one shared string each (docs/performance.md, "Scale").
 */
export type Interner = <T extends string | undefined | null>(value: T) => T;

export function createInterner(): Interner {
  const seen = new Map<string, string>();
  return <T extends string | undefined | null>(value: T): T => {
    if (typeof value !== 'string') return value;
    const known = seen.get(value);
    if (known !== undefined) return known as T;
    // Hashing it as a key flattens a string built by concatenation, which then no longer holds its parts.
    seen.set(value, value);
    return value;
  };
}
