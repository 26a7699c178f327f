/**
 * mulberry32: a 32-bit seeded PRNG. Hand-written because it is six lines, fully deterministic across platforms
 * and Node versions, and fast enough for 10⁷ draws per bootstrap; statistical quality is ample for resampling
 * (it passes gjrand and PractRand up to its 2³² period). No dependency is worth that.
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
