import path from 'node:path';
import { SOURCE_TYPE_CODES, type SourceType } from '@pledgewatch/contract';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { type AllowedRange, parseAllowedRanges } from '../lib/outbound/address-policy.ts';
import {
  providersServing,
  SOURCE_PROVIDER_NAMES,
  SOURCE_PROVIDER_VALUES,
  SOURCE_PROVIDERS,
  type SourceProviderName,
} from './source-providers.ts';

const durationSeconds = z.coerce.number().int().positive();

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Which reverse proxies may set X-Forwarded-For. Off by default: trusting the header from anyone
 * lets a client pick its own address and walk past per-address sign-in throttling.
 */
export type TrustProxy = false | { hops: number } | { addresses: string[] };

const trustProxySchema = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx): TrustProxy => {
    if (value === '' || value === 'false' || value === '0') {
      return false;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops > 10) {
        ctx.addIssue({ code: 'custom', message: 'a hop count from 1 to 10' });
        return z.NEVER;
      }
      return { hops };
    }
    const addresses = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const invalid = addresses.filter(
      (entry) =>
        !PROXY_RANGE_NAMES.includes(entry) &&
        !ipaddr.IPv4.isValidFourPartDecimal(entry) &&
        !ipaddr.IPv4.isValidCIDRFourPartDecimal(entry) &&
        !ipaddr.IPv6.isValid(entry) &&
        !ipaddr.IPv6.isValidCIDR(entry),
    );
    if (invalid.length > 0 || addresses.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `'false', a hop count or comma-separated proxy addresses/CIDRs; not valid: ${invalid.join(', ') || value}`,
      });
      return z.NEVER;
    }
    return { addresses };
  });

/** Fastify's trustProxy option for the configured proxies. */
export function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) {
    return false;
  }
  if ('hops' in trust) {
    // Fastify ignores a plain number (it cannot check the peer), so the hop rule is spelled out:
    // the socket peer is hop 0, the right-most X-Forwarded-For entry hop 1, and so on.
    const { hops } = trust;
    return (_address, hop) => hop < hops;
  }
  return trust.addresses;
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** A PostgreSQL server to use; without it the app starts an embedded PostgreSQL in DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('.data'),
  /** Port of the embedded PostgreSQL; 0 picks a free one. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** shared_buffers of the embedded PostgreSQL in MB; by default a quarter of memory, 128 MB to 8 GB. */
  EMBEDDED_PG_SHARED_BUFFERS_MB: z.coerce.number().int().min(16).max(1_048_576).optional(),
  APP_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Pledgewatch <no-reply@pledgewatch.local>'),
  SESSION_TTL: durationSeconds.default(7 * 24 * 3600),
  RESET_TOKEN_TTL: durationSeconds.default(3600),
  VERIFY_TOKEN_TTL: durationSeconds.default(48 * 3600),
  INVITE_TOKEN_TTL: durationSeconds.default(7 * 24 * 3600),
  LOGIN_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
  LOGIN_WINDOW: durationSeconds.default(15 * 60),
  /** `false` (default), a hop count, or comma-separated proxy addresses/CIDRs. */
  TRUST_PROXY: trustProxySchema,
  /** `false` disables job consumers in this process; run `npm run worker` to consume instead. */
  WORKERS: z.enum(['true', 'false']).default('true'),
  DEMO_DATA: z.enum(['true', 'false']).default('true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /** Largest upload file (bytes). */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  /** Largest total unpacked size of an XLSX (zip-bomb guard). */
  UPLOAD_MAX_UNZIPPED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024 * 1024),
  /**
   * Largest dataset file a source import receives (bytes): the MVD passport list is about 0.5 GB
   * compressed and 1.5 GB as CSV, so the cap follows it rather than an upload's.
   */
  SOURCE_IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024 * 1024),
  /** The MVD list of invalid passports (`.csv.bz2`): asked daily with a conditional request. */
  SOURCE_PASSPORT_LIST_URL: z.string().url().optional(),
  /** Timeout of the whole download of that list, milliseconds. */
  SOURCE_PASSPORT_LIST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 60 * 1000),
  /** Time a client has to send a request's headers, seconds. */
  HTTP_HEADERS_TIMEOUT: durationSeconds.default(15),
  /** Time a client has to send a whole request, body included (a source's dataset of gigabytes too), seconds. */
  HTTP_REQUEST_TIMEOUT: durationSeconds.default(3600),
  /** A connection with no traffic either way for this long is closed, seconds. */
  HTTP_IDLE_TIMEOUT: durationSeconds.default(120),
  /** Slowest request body (uploads above all) accepted, bytes per second, over each UPLOAD_RATE_WINDOW. */
  UPLOAD_MIN_RATE: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024),
  UPLOAD_RATE_WINDOW: durationSeconds.default(20),
  /** Telegram Bot API base URL (tests point it at a local server). */
  TELEGRAM_API_URL: z.string().url().default('https://api.telegram.org'),
  /** Timeout of one webhook or Telegram call, milliseconds. */
  NOTIFY_HTTP_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Items per batch job of a check run. */
  CHECK_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(10_000),
  /** Defaults for remote sources; SOURCE_<TYPE>_TIMEOUT_MS etc. override per source type. */
  SOURCE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  SOURCE_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  SOURCE_RATE_LIMIT: z.coerce.number().positive().default(20),
  /**
   * Private address ranges (comma-separated CIDRs) that webhooks may reach, e.g. a bank's internal
   * receiver; by default only public addresses are allowed.
   */
  OUTBOUND_ALLOWED_RANGES: z
    .string()
    .default('')
    .superRefine((value, ctx) => {
      try {
        parseAllowedRanges(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  /** How often the job queue looks for expired or dead (no heartbeat) jobs, seconds. */
  JOBS_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** PostgreSQL connections of the API's requests (one pool per app process). */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  /**
   * PostgreSQL connections of the background jobs (check batches, upload imports, deliveries), a pool
   * of their own in the app (WORKERS=true) and in `npm run worker`: long job queries never take the
   * connections the API answers with, and a run cannot occupy more of the database than this.
   * A check batch takes up to two at a time and an upload's validation three: keep it at least
   * 2 × 3 batches + 3, the default's margin.
   */
  JOBS_DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  /**
   * Check batches at a time per process. Unset: 1 in the app process (WORKERS=true), whose API then
   * keeps a core while a run goes on, and 3 in `npm run worker`, a process for jobs alone.
   */
  CHECK_BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * Database-heavy jobs (check batches, upload validation and import) at a time in the app process,
   * across their queues; `npm run worker` has no such shared limit.
   */
  APP_HEAVY_JOBS: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Bearer token of `GET /metrics` (Prometheus); unset, the metrics are not served. Long enough not
   * to be guessed: the metrics name queues, sources and routes.
   */
  METRICS_TOKEN: z
    .string()
    .refine((value) => value === '' || value.length >= 16, 'at least 16 characters')
    .optional(),
  /** Port of `npm run worker`'s own `/metrics` (with METRICS_TOKEN); unset, the worker serves none. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // Nice value of the job pool's PostgreSQL backends when the server is on this host (0: unchanged).
  JOBS_DB_NICE: z.coerce.number().int().min(0).max(19).default(10),
});

/**
 * A source type is served by a provider when SOURCE_<TYPE>_PROVIDER names one (config/source-providers.ts),
 * or by our JSON protocol when only SOURCE_<TYPE>_URL is set; e.g. SOURCE_WANTED_PROVIDER, SOURCE_WANTED_URL
 * (default: the provider's production address), SOURCE_WANTED_TOKEN (a key, or `login:password`),
 * SOURCE_WANTED_TIMEOUT_MS, SOURCE_WANTED_RETRIES, SOURCE_WANTED_RATE_LIMIT (requests per second, all
 * processes together), SOURCE_WANTED_CACHE_TTL (seconds), SOURCE_WANTED_DAILY_LIMIT (requests per Moscow
 * day), SOURCE_WANTED_PRICE (roubles per request), SOURCE_WANTED_REPORT_TYPE (Avtocod's report type uid),
 * SOURCE_WANTED_CONCURRENCY (requests in flight per batch).
 */
const remoteSourceEnvSchema = z.object({
  PROVIDER: z.string().optional(),
  REPORT_TYPE: z.string().optional(),
  URL: z.string().url().optional(),
  TOKEN: z.string().optional(),
  TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  RETRIES: z.coerce.number().int().min(0).max(10).optional(),
  RATE_LIMIT: z.coerce.number().positive().optional(),
  CACHE_TTL: z.coerce.number().int().min(0).optional(),
  DAILY_LIMIT: z.coerce.number().int().min(0).optional(),
  PRICE: z.coerce.number().min(0).optional(),
  CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
});

export interface RemoteSourceConfig {
  provider: SourceProviderName;
  /** The provider's base URL, without a trailing slash. */
  url: string;
  /** Avtocod: the report type uid (`<type>@<domain>`); default `default@<domain of the login>`. */
  reportType?: string;
  token?: string;
  timeoutMs: number;
  retries: number;
  /** Requests per second, all app and worker processes together (request-budget.ts). */
  rateLimit: number;
  /** Seconds an answer stays in the cache; undefined → the source type's default. */
  cacheTtl?: number;
  /** Requests per Moscow day; undefined: no daily limit. */
  dailyLimit?: number;
  /** Roubles per request (0: not charged, or unknown). */
  price: number;
  /** Requests in flight per batch; undefined → derived from the rate limit (remote-source.ts). */
  concurrency?: number;
}

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  databaseUrl?: string;
  dataDir: string;
  embeddedPgPort: number;
  /** EMBEDDED_PG_SHARED_BUFFERS_MB; undefined: sized from the machine's memory (db/embedded.ts). */
  embeddedPgSharedBuffersMb?: number;
  appUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  sessionTtl: number;
  resetTokenTtl: number;
  verifyTokenTtl: number;
  inviteTokenTtl: number;
  loginMaxAttempts: number;
  loginWindow: number;
  /** Reverse proxies whose X-Forwarded-For is believed (request.ip). */
  trustProxy: TrustProxy;
  runWorkers: boolean;
  demoData: boolean;
  logLevel: Env['LOG_LEVEL'];
  webDist: string;
  uploadMaxBytes: number;
  uploadMaxUnzippedBytes: number;
  sourceImportMaxBytes: number;
  passportListUrl?: string;
  passportListTimeoutMs: number;
  /** HTTP_HEADERS_TIMEOUT, HTTP_REQUEST_TIMEOUT, HTTP_IDLE_TIMEOUT: seconds (plugins/transfer-limits.ts). */
  httpHeadersTimeout: number;
  httpRequestTimeout: number;
  httpIdleTimeout: number;
  /** UPLOAD_MIN_RATE (bytes/s) over UPLOAD_RATE_WINDOW (seconds): a slower upload ends with 408. */
  uploadMinRate: number;
  uploadRateWindow: number;
  telegramApiUrl: string;
  notifyHttpTimeoutMs: number;
  checkBatchSize: number;
  /** Source types served by an HTTP service; the others are dataset sources. */
  remoteSources: Partial<Record<SourceType, RemoteSourceConfig>>;
  jobsSuperviseSeconds: number;
  /** DB_POOL_SIZE: connections of the API's pool. */
  dbPoolSize: number;
  /** JOBS_DB_POOL_SIZE: connections of the job workers' own pool. */
  jobsDbPoolSize: number;
  /** CHECK_BATCH_CONCURRENCY when set; else each process's default (see checkBatchConcurrency). */
  checkBatchConcurrency?: number;
  /** APP_HEAVY_JOBS: heavy jobs at a time in the app process (see JobDefinition.heavy). */
  appHeavyJobs: number;
  /** JOBS_DB_NICE: OS priority of the job pool's local PostgreSQL backends (db/backend-priority.ts). */
  jobsDbNice: number;
  /** OUTBOUND_ALLOWED_RANGES, parsed: private ranges that tenant-given URLs (webhooks) may reach. */
  outboundAllowedRanges: AllowedRange[];
  /** METRICS_TOKEN: `/metrics` is served only with it, to this bearer token. */
  metricsToken?: string;
  /** METRICS_PORT: where `npm run worker` serves its own metrics. */
  metricsPort?: number;
}

function readRemoteSources(
  source: NodeJS.ProcessEnv,
  env: Env,
): Partial<Record<SourceType, RemoteSourceConfig>> {
  const result: Partial<Record<SourceType, RemoteSourceConfig>> = {};
  for (const type of SOURCE_TYPE_CODES) {
    const prefix = `SOURCE_${type.toUpperCase()}_`;
    const raw = Object.fromEntries(
      Object.entries(source)
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, value]) => [key.slice(prefix.length), value]),
    );
    const parsed = remoteSourceEnvSchema.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `  ${prefix}${issue.path.join('.')}: ${issue.message}`,
      );
      throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
    }
    const chosen = chooseProvider(type, prefix, parsed.data);
    if (chosen) {
      result[type] = {
        provider: chosen.provider,
        url: chosen.url.replace(/\/$/, ''),
        reportType: parsed.data.REPORT_TYPE || undefined,
        token: parsed.data.TOKEN || undefined,
        timeoutMs: parsed.data.TIMEOUT_MS ?? env.SOURCE_TIMEOUT_MS,
        retries: parsed.data.RETRIES ?? env.SOURCE_RETRIES,
        rateLimit: parsed.data.RATE_LIMIT ?? env.SOURCE_RATE_LIMIT,
        cacheTtl: parsed.data.CACHE_TTL,
        dailyLimit: parsed.data.DAILY_LIMIT,
        price: parsed.data.PRICE ?? 0,
        concurrency: parsed.data.CONCURRENCY,
      };
    }
  }
  return result;
}

/**
 * The provider a source type's variables choose, or null for the dataset. SOURCE_<TYPE>_URL alone keeps
 * meaning our JSON protocol. A wrong or empty SOURCE_<TYPE>_PROVIDER, a provider that does not serve the
 * type, or a missing address or token stops the start with a sentence naming what is allowed.
 */
function chooseProvider(
  type: SourceType,
  prefix: string,
  data: { PROVIDER?: string; URL?: string; TOKEN?: string },
): { provider: SourceProviderName; url: string } | null {
  const fail = (sentence: string) => {
    throw new Error(`Invalid configuration:\n  ${sentence}`);
  };
  const allowed = SOURCE_PROVIDER_VALUES.join(', ');
  if (data.PROVIDER === undefined) {
    if (data.URL) {
      return { provider: 'json-service', url: data.URL };
    }
    if (data.TOKEN) {
      fail(`${prefix}PROVIDER is missing while ${prefix}TOKEN is set; set it to one of: ${allowed}.`);
    }
    return null;
  }
  const name = data.PROVIDER.trim();
  if (name === '') {
    fail(`${prefix}PROVIDER is empty; set it to one of: ${allowed}.`);
  }
  if (name === 'dataset') {
    return null;
  }
  if (!(SOURCE_PROVIDER_NAMES as string[]).includes(name)) {
    fail(`${prefix}PROVIDER «${name}» is not a provider; allowed: ${allowed}.`);
  }
  const provider = name as SourceProviderName;
  const spec = SOURCE_PROVIDERS[provider];
  if (!(spec.types as readonly SourceType[]).includes(type)) {
    fail(
      `${prefix}PROVIDER «${name}» does not serve the ${type} source; providers for it: dataset, ${providersServing(type).join(', ')}.`,
    );
  }
  const url = data.URL ?? spec.defaultUrl;
  if (!url) {
    fail(`${prefix}URL is required for the ${name} provider (the address of the service).`);
  }
  if (spec.token === 'key' && !data.TOKEN) {
    fail(`${prefix}TOKEN is required for the ${name} provider (its API key).`);
  }
  if (spec.token === 'login:password' && !/^[^:]+:.+$/.test(data.TOKEN ?? '')) {
    fail(`${prefix}TOKEN for the ${name} provider is login:password.`);
  }
  return { provider, url: url! };
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
    embeddedPgSharedBuffersMb: env.EMBEDDED_PG_SHARED_BUFFERS_MB,
    appUrl: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM,
    sessionTtl: env.SESSION_TTL,
    resetTokenTtl: env.RESET_TOKEN_TTL,
    verifyTokenTtl: env.VERIFY_TOKEN_TTL,
    inviteTokenTtl: env.INVITE_TOKEN_TTL,
    loginMaxAttempts: env.LOGIN_MAX_ATTEMPTS,
    loginWindow: env.LOGIN_WINDOW,
    trustProxy: env.TRUST_PROXY,
    runWorkers: env.WORKERS === 'true',
    demoData: env.DEMO_DATA === 'true',
    logLevel: env.LOG_LEVEL,
    webDist: env.WEB_DIST ? path.resolve(env.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    uploadMaxUnzippedBytes: env.UPLOAD_MAX_UNZIPPED_BYTES,
    sourceImportMaxBytes: env.SOURCE_IMPORT_MAX_BYTES,
    passportListUrl: env.SOURCE_PASSPORT_LIST_URL || undefined,
    passportListTimeoutMs: env.SOURCE_PASSPORT_LIST_TIMEOUT_MS,
    httpHeadersTimeout: env.HTTP_HEADERS_TIMEOUT,
    httpRequestTimeout: env.HTTP_REQUEST_TIMEOUT,
    httpIdleTimeout: env.HTTP_IDLE_TIMEOUT,
    uploadMinRate: env.UPLOAD_MIN_RATE,
    uploadRateWindow: env.UPLOAD_RATE_WINDOW,
    telegramApiUrl: env.TELEGRAM_API_URL.replace(/\/$/, ''),
    notifyHttpTimeoutMs: env.NOTIFY_HTTP_TIMEOUT_MS,
    checkBatchSize: env.CHECK_BATCH_SIZE,
    remoteSources: readRemoteSources(source, env),
    jobsSuperviseSeconds: env.JOBS_SUPERVISE_SECONDS,
    dbPoolSize: env.DB_POOL_SIZE,
    jobsDbPoolSize: env.JOBS_DB_POOL_SIZE,
    checkBatchConcurrency: env.CHECK_BATCH_CONCURRENCY,
    appHeavyJobs: env.APP_HEAVY_JOBS,
    jobsDbNice: env.JOBS_DB_NICE,
    outboundAllowedRanges: parseAllowedRanges(env.OUTBOUND_ALLOWED_RANGES),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT,
  };
}
