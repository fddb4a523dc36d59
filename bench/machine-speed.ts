/**
 * How fast this machine is, by two fixed pieces of work timed before any benchmark: a figure of a
 * benchmark is read against these, so a slow machine is told from a slow change (the same code met
 * the load benchmark's target on one 2-core machine and answered at p50 400 ms on another).
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';

/** SHA-256 of 1 KB this many times, on this process's thread. */
const NODE_HASHES = 100_000;
/** A count over generate_series of this many rows in one PostgreSQL backend. */
const POSTGRES_ROWS = 2_000_000;
const TRIES = 3;

const best = async (work: () => unknown | Promise<unknown>): Promise<number> => {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < TRIES; i++) {
    const started = performance.now();
    await work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
};

export interface MachineSpeed {
  cores: number;
  cpu: string;
  nodeMs: number;
  postgresMs: number;
}

export async function measureMachineSpeed(databaseUrl: string): Promise<MachineSpeed> {
  const block = Buffer.alloc(1024, 'x');
  const nodeMs = await best(() => {
    for (let i = 0; i < NODE_HASHES; i++) {
      createHash('sha256').update(block).digest();
    }
  });
  // The server's maintenance database: a benchmark may create the one its URL names only later.
  const server = new URL(databaseUrl);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const postgresMs = await best(() =>
      client.query(`SELECT count(*) FROM generate_series(1, ${POSTGRES_ROWS})`),
    );
    return { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', nodeMs, postgresMs };
  } finally {
    await client.end();
  }
}

/** The lines bench/run.ts prints first. */
export function describeMachineSpeed(speed: MachineSpeed): string[] {
  return [
    `machine: ${speed.cores} cores (${speed.cpu}); reference work, best of ${TRIES}, lower is faster: ` +
      `node ${speed.nodeMs.toFixed(0)} ms (${NODE_HASHES.toLocaleString('en-US')} SHA-256 of 1 KB), ` +
      `postgres ${speed.postgresMs.toFixed(0)} ms (count of ${POSTGRES_ROWS.toLocaleString('en-US')} generated rows)`,
    `RESULT machine cores=${speed.cores} node_ref_ms=${speed.nodeMs.toFixed(0)} postgres_ref_ms=${speed.postgresMs.toFixed(0)}`,
  ];
}
