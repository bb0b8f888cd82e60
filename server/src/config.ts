import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for the embedded SQLite database)')
    .optional(),
  DATA_DIR: z.string().default('./data'),
  TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().default('BOLX-WMS <no-reply@bolx.local>'),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_DATA: bool.default(false),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  TRUST_PROXY: bool.default(false),
  WEB_DIST: z.string().optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  BACKGROUND_UPLOAD_BYTES: z.coerce.number().int().min(0).default(256 * 1024),
  JOB_LOCK_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  // At most the days finished jobs are kept (KEEP_FINISHED_DAYS): a report job's file is found through its job.
  REPORT_FILE_RETENTION_DAYS: z.coerce.number().int().min(1).max(30, 'must be at most 30 (finished jobs are kept 30 days)').default(7),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  tokenSecret: Uint8Array;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  demoData: boolean;
  adminPassword: string | undefined;
  trustProxy: boolean;
  webDist: string | undefined;
  dbPoolSize: number;
  /** An upload larger than this runs as a background job (202 and the job); smaller ones answer in the response. */
  backgroundUploadBytes: number;
  /** How long a node's claim on a job lasts unrenewed: how soon another node takes over the job of a node that died. */
  jobLockMs: number;
  /** Report jobs' files, and the attachments of mail sent, are deleted this many days after (the nightly cleanup). */
  reportFileRetentionDays: number;
  /**
   * On SIGTERM, how long /ready answers 503 while requests are still served, before the node stops listening: a load
   * balancer's health check (interval × fall) needs that long to send new requests elsewhere.
   */
  shutdownDrainMs: number;
  /** /metrics on the main port answers a request bearing this token (Prometheus' `authorization` setting). */
  metricsToken: string | undefined;
  /** A listener of its own serving /metrics alone, to be kept off the public network. */
  metricsPort: number | undefined;
}

export class ConfigError extends Error {}

/** Reads and validates the environment; a bad value throws one clear line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  // Every node behind one PostgreSQL must sign and check tokens with one secret; a secret generated per node
  // would sign its users out whenever the load balancer sent them to another.
  if (e.DATABASE_URL && !e.TOKEN_SECRET && !overrides.tokenSecret) {
    throw new ConfigError('Invalid configuration: TOKEN_SECRET must be set when DATABASE_URL is set (the same on every node, at least 32 characters: `openssl rand -base64 48`)');
  }
  const dataDir = resolve(overrides.dataDir ?? e.DATA_DIR);
  const port = overrides.port ?? e.PORT;
  return {
    port,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    tokenSecret: overrides.tokenSecret ?? tokenSecretFrom(e.TOKEN_SECRET, dataDir),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${port}`,
    logLevel: e.LOG_LEVEL,
    demoData: e.DEMO_DATA,
    adminPassword: e.ADMIN_PASSWORD,
    trustProxy: e.TRUST_PROXY,
    webDist: e.WEB_DIST,
    dbPoolSize: e.DB_POOL_SIZE,
    backgroundUploadBytes: e.BACKGROUND_UPLOAD_BYTES,
    jobLockMs: e.JOB_LOCK_MS,
    reportFileRetentionDays: e.REPORT_FILE_RETENTION_DAYS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    ...overrides,
  };
}

/** TOKEN_SECRET when set; otherwise one generated on first start and kept in DATA_DIR (mode 0600). */
function tokenSecretFrom(value: string | undefined, dataDir: string): Uint8Array {
  if (value) return new TextEncoder().encode(value);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'token-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}
