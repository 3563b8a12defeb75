// The seeded random source of the bench's generators, shared with tools/lineage-profile.ts so its
// graph, too, is the same on every machine. A leaf module: importing it loads no generator.

/** mulberry32: tiny, fast, and the same sequence on every machine. */
export function rng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
