import path from 'node:path';
import { z } from 'zod';

const durationSeconds = z.coerce.number().int().positive();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** A PostgreSQL server to use; without it the app starts an embedded PostgreSQL in DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('.data'),
  /** Port of the embedded PostgreSQL; 0 picks a free one. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  APP_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Pledgewatch <no-reply@pledgewatch.local>'),
  SESSION_TTL: durationSeconds.default(7 * 24 * 3600),
  RESET_TOKEN_TTL: durationSeconds.default(3600),
  VERIFY_TOKEN_TTL: durationSeconds.default(48 * 3600),
  INVITE_TOKEN_TTL: durationSeconds.default(7 * 24 * 3600),
  LOGIN_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
  LOGIN_WINDOW: durationSeconds.default(15 * 60),
  /** `false` disables job consumers in this process; run `npm run worker` to consume instead. */
  WORKERS: z.enum(['true', 'false']).default('true'),
  DEMO_DATA: z.enum(['true', 'false']).default('true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  databaseUrl?: string;
  dataDir: string;
  embeddedPgPort: number;
  appUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  sessionTtl: number;
  resetTokenTtl: number;
  verifyTokenTtl: number;
  inviteTokenTtl: number;
  loginMaxAttempts: number;
  loginWindow: number;
  runWorkers: boolean;
  demoData: boolean;
  logLevel: Env['LOG_LEVEL'];
  webDist: string;
}

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** Reads and validates the environment; stops with a readable list of problems. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(repoRoot, env.DATA_DIR),
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    appUrl: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM,
    sessionTtl: env.SESSION_TTL,
    resetTokenTtl: env.RESET_TOKEN_TTL,
    verifyTokenTtl: env.VERIFY_TOKEN_TTL,
    inviteTokenTtl: env.INVITE_TOKEN_TTL,
    loginMaxAttempts: env.LOGIN_MAX_ATTEMPTS,
    loginWindow: env.LOGIN_WINDOW,
    runWorkers: env.WORKERS === 'true',
    demoData: env.DEMO_DATA === 'true',
    logLevel: env.LOG_LEVEL,
    webDist: env.WEB_DIST ? path.resolve(env.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
  };
}
