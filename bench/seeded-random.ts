/** xorshift32: the same stream of numbers in [0, 1) in every run, so that benchmark runs compare. */
export function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}
