import { benchAuth } from './auth.bench.ts';
import { openBenchDatabase } from './bench-database.ts';
import { benchChecks } from './checks.bench.ts';
import type { BenchContext } from './harness.ts';
import { benchItems } from './items.bench.ts';
import { benchLoad } from './load.bench.ts';
import { describeMachineSpeed, measureMachineSpeed } from './machine-speed.ts';
import { benchPassports } from './passports.bench.ts';
import { benchPortfolio } from './portfolio.bench.ts';
import { benchProviders } from './providers.bench.ts';
import { benchStatistics } from './statistics.bench.ts';

/** Every benchmark of the project, in order. Later work adds its own here. */
const BENCHMARKS: { name: string; run: (context: BenchContext) => Promise<void> }[] = [
  { name: 'auth', run: benchAuth },
  { name: 'portfolio', run: benchPortfolio },
  { name: 'items', run: benchItems },
  { name: 'checks', run: benchChecks },
  { name: 'statistics', run: benchStatistics },
  { name: 'load', run: benchLoad },
  { name: 'providers', run: benchProviders },
  { name: 'passports', run: benchPassports },
];

const only = process.argv[2];
const database = await openBenchDatabase();
console.log(`Pledgewatch benchmarks on ${database.label}, Node ${process.version}`);
try {
  for (const line of describeMachineSpeed(await measureMachineSpeed(database.url))) {
    console.log(line);
  }
  for (const bench of BENCHMARKS.filter((b) => !only || b.name === only)) {
    await bench.run({ databaseUrl: database.url, seconds: Number(process.env.BENCH_SECONDS ?? 5) });
  }
} finally {
  await database.close();
}
process.exit(0);
