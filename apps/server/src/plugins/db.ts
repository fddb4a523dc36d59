import fp from 'fastify-plugin';
import type pg from 'pg';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: pg.Pool;
  }
}

export interface DbPluginOptions {
  connectionString: string;
  /** Apply pending migrations before the app accepts requests. */
  migrate: boolean;
  poolSize?: number;
}

export default fp<DbPluginOptions>(
  async (fastify, options) => {
    const pool = createPool(options.connectionString, options.poolSize);
    if (options.migrate) {
      const { applied } = await migrate(pool);
      if (applied.length > 0) {
        fastify.log.info({ applied }, 'migrations applied');
      }
    }
    fastify.decorate('db', pool);
    fastify.addHook('onClose', async () => {
      await pool.end();
    });
  },
  { name: 'db' },
);
