/**
 * A small load harness for `npm run bench`: N concurrent loops call a function for a fixed time
 * and we print throughput and latency percentiles. Figures, never pass/fail.
 */
/** What every benchmark gets from bench/run.ts. */
export interface BenchContext {
  databaseUrl: string;
  /** Seconds per load case; BENCH_SECONDS overrides. */
  seconds: number;
}

export interface LoadResult {
  name: string;
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) {
    return 0;
  }
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

export async function runLoad(
  name: string,
  call: () => Promise<unknown>,
  options: { concurrency: number; seconds: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await call();
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors,
  };
}

export function printTable(title: string, results: LoadResult[]): void {
  console.log(`\n${title}`);
  console.log(
    `${'case'.padEnd(34)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)}`,
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(34)} ${r.perSecond.toFixed(0).padStart(9)} ${r.p50.toFixed(2).padStart(8)} ${r.p95.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.errors).padStart(7)}`,
    );
  }
}
