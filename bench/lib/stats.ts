// Latency summaries: every workload reports p50 / p95 / max (nearest-rank) and throughput.

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

const round = (x: number) => Math.round(x * 100) / 100;

export function summarize(samples: number[]): Summary {
  if (samples.length === 0) return { n: 0, p50: NaN, p95: NaN, max: NaN, mean: NaN };
  const s = [...samples].sort((a, b) => a - b);
  const rank = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  return {
    n: s.length,
    p50: round(rank(0.5)),
    p95: round(rank(0.95)),
    max: round(s.at(-1)!),
    mean: round(s.reduce((a, b) => a + b, 0) / s.length),
  };
}

/** Times fn `runs` times after `warmup` untimed runs; returns ms samples and the last result. */
export async function timeRuns<T>(runs: number, warmup: number, fn: () => Promise<T>): Promise<{ samples: number[]; last: T }> {
  let last!: T;
  for (let i = 0; i < warmup; i++) last = await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    last = await fn();
    samples.push(performance.now() - t);
  }
  return { samples, last };
}

export const fmtMs = (x: number) => (Number.isNaN(x) ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
export const fmtInt = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');
