import pg from 'pg';

/** Anything that can run a query: the pool or a client inside a transaction. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

// Bigint counts (COUNT(*)) come back as JS numbers; our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * Session settings of every connection the app opens. JIT off: the app's statements are short, and
 * the planner's cost estimates of a few of them (the dashboard's range probes, 0030) pass the JIT
 * threshold, so each call compiled for ~25 ms to run for 1–4 ms (the load benchmark's dashboard:
 * 33 → 4 ms at a million items).
 */
export const SESSION_OPTIONS = '-c jit=off';

/**
 * A connection that runs the queries it is given at once one after another itself. A transaction's
 * reads are often independent (a page and its total, in Promise.all); pg queues a second query on a
 * busy client only with a deprecation warning, and pg 9 refuses it. Callback and submittable queries
 * (pool.query's own, COPY streams, cursors) go to pg as they are.
 */
export class OneQueryAtATimeClient extends pg.Client {
  #last: Promise<unknown> = Promise.resolve();

  // biome-ignore lint/suspicious/noExplicitAny: pg.Client.query's overloads, passed through unchanged
  override query(...args: any[]): any {
    const [first] = args;
    if (typeof args.at(-1) === 'function' || typeof first?.submit === 'function') {
      return super.query.apply(this, args as Parameters<pg.Client['query']>);
    }
    const run = this.#last.then(() => super.query.apply(this, args as Parameters<pg.Client['query']>));
    this.#last = run.catch(() => {});
    return run;
  }
}

export function createPool(
  connectionString: string,
  max = 10,
  applicationName = 'pledgewatch',
  hooks: {
    /** Awaited on each new connection before the pool hands it out (e.g. db/backend-priority.ts). */
    onConnect?: ((client: pg.ClientBase) => Promise<void>) | undefined;
    /** Keep every connection once opened (the API's pool: see warmConnection); else closed after 10 s idle. */
    keepOpen?: boolean;
  } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    min: hooks.keepOpen ? max : 0,
    application_name: applicationName,
    options: SESSION_OPTIONS,
    onConnect: hooks.onConnect,
    Client: OneQueryAtATimeClient,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

/**
 * Readies a new connection's backend for the app's statements: each relation of the app's schema is
 * opened once (with its indexes, by planning a read of it), so the first calls on this connection do
 * not each build those catalog cache entries on the way. With the pool kept and readied, the load
 * benchmark's first 5 s (a burst on a quiet app, a run and an upload starting) had p99 126 / 277 /
 * 433 ms in three runs, against 296 / 558 / 864 ms with connections opened by the burst itself
 * (docs/performance.md, «Where the first seconds went»).
 */
export async function warmConnection(client: pg.ClientBase): Promise<void> {
  await client.query(`DO $warm$
    DECLARE relation regclass;
    BEGIN
      FOR relation IN
        SELECT c.oid::regclass FROM pg_class c
         WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'm')
      LOOP
        EXECUTE format('EXPLAIN SELECT 1 FROM %s', relation);
      END LOOP;
    END
  $warm$`);
}

/** Opens the pool's every connection now (each through its onConnect), so the first calls find them. */
export async function openEveryConnection(pool: pg.Pool): Promise<void> {
  const clients = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
  for (const client of clients) {
    client.release();
  }
}

/** Runs `work` in one transaction: commits on success, rolls back on any error. */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);
const CONNECTION_ERROR_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly/;

/**
 * Whether an error means "no working connection to PostgreSQL" (server down, restarting, unreachable)
 * rather than a fault of the query: SQLSTATE class 08, the shutdown codes, socket errors, and pg's
 * own messages for a dropped connection. Follows `cause` and AggregateError's `errors`.
 */
export function isConnectionError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) {
    return false;
  }
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
    return true;
  }
  if (typeof message === 'string' && CONNECTION_ERROR_MESSAGES.test(message)) {
    return true;
  }
  if (Array.isArray(errors) && errors.some((inner) => isConnectionError(inner, depth + 1))) {
    return true;
  }
  return isConnectionError(cause, depth + 1);
}

/**
 * Retries `work` while PostgreSQL is unreachable (see isConnectionError), for up to `timeoutMs`.
 * For recording that something irreversible already happened (a mail handed to SMTP): giving up
 * at once would make the job's retry do it a second time.
 */
export async function retryOnConnectionLoss<T>(
  work: () => Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isConnectionError(error) || Date.now() >= deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
    }
  }
}
