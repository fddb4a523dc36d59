import fp from 'fastify-plugin';
import type pg from 'pg';
import { migrate } from '../db/migrate.ts';
import { createPool, warmConnection } from '../db/pool.ts';

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
    // Kept and warmed: a burst of calls after a quiet spell finds every connection ready (warmConnection).
    const pool = createPool(options.connectionString, options.poolSize, 'pledgewatch', {
      keepOpen: true,
      onConnect: warmConnection,
    });
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
