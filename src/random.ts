/**
 * mulberry32 (Tommy Ettinger, public domain): the one seeded PRNG of docbench — bootstrap resampling, fault
 * injection, the sample generator, benchmark inputs. Hand-written because it is six lines, identical on
 * every platform and Node version (the committed sample's hashes depend on that), fast enough for 10⁷ draws
 * per bootstrap, and passes PractRand to its 2³² period; no registry PRNG is worth a dependency for that.
 * Not for anything secret.
 */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
