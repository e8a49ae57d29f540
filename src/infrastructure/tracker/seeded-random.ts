/** A small seeded generator for the tracker's draws: the same seed gives the same numbers on any machine. */

/** FNV-1a of a string (a number is taken as its decimal string): the 32-bit seed of a step. */
export function hashSeed(value: string | number): number {
  const seed = String(value);
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i += 1) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32, in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal pairs by Box–Muller, into `out` (its length even). */
export function fillGaussian(random: () => number, out: Float64Array): void {
  for (let i = 0; i < out.length; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    out[i] = radius * Math.cos(angle);
    out[i + 1] = radius * Math.sin(angle);
  }
}
