/**
 * The server's configuration, read once from the environment and validated with zod.
 * A bad value produces one clear line per problem (see `formatConfigErrors`) and the process exits 1.
 */
import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: 'must be a postgres:// or postgresql:// URL (leave it unset for SQLite in DATA_DIR)',
  }),
  SECRET_KEY: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters (leave it unset to have one generated in DATA_DIR)',
  }),
  PUBLIC_URL: optionalString.refine((v) => v === undefined || /^https?:\/\/[^/]+/.test(v), {
    message: 'must be an http:// or https:// URL, e.g. https://paste.example.com',
  }),
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((v, ctx) => {
      if (/^(false|no|off|0|)$/i.test(v)) return 0;
      if (/^(true|yes|on)$/i.test(v)) return 1;
      if (/^\d+$/.test(v)) return Number(v);
      ctx.addIssue({ code: 'custom', message: 'must be true, false or a number of proxy hops' });
      return z.NEVER;
    }),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ADMIN_USERNAME: optionalString.refine((v) => v === undefined || v.length <= 50, {
    message: 'must be at most 50 characters',
  }),
  ADMIN_PASSWORD: optionalString.refine((v) => v === undefined || v.length >= 8, {
    message: 'must be at least 8 characters',
  }),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24),
  CORS_ORIGINS: z.string().trim().default('*'),
  BODY_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  UPLOAD_MIN_KIB: z.coerce
    .number()
    .min(0)
    .max(1024 * 1024)
    .default(64),
  UPLOAD_RATE_WINDOW_SECONDS: z.coerce.number().positive().max(3600).default(60),
  ZIP_MAX_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(100_000),
  ZIP_LINK_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .min(1, { message: 'must be at least 1 second' })
    .max(3600, { message: 'must be at most 3600 seconds (1 hour)' })
    .default(30),
  WEB_DIST_DIR: optionalString,
  JOB_INTERVAL_SECONDS: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(1).max(86_400).optional(),
  ),
  CUBBY_TEST_HOOKS: z
    .string()
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  secretKey: string | undefined;
  publicUrl: string | undefined;
  trustProxyHops: number;
  logLevel: (typeof LOG_LEVELS)[number];
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  sessionTtlMs: number;
  corsOrigins: '*' | string[];
  /**
   * Request bodies (http/request-body.ts): a small (JSON) body must arrive within `timeoutMs`; a
   * streamed upload must bring `minBytes` in every `windowMs` the server waits for it.
   */
  body: { timeoutMs: number; minBytes: number; windowMs: number };
  /**
   * Folder downloads as zip (modules/fs/fs-zip.ts): at most `maxEntries` files and folders in one
   * archive; a zip link works for `linkSeconds`.
   */
  zip: { maxEntries: number; linkSeconds: number };
  /**
   * On SIGTERM/SIGINT, how long requests in flight (uploads included) may take to finish before their
   * connections are cut (main.ts). A service manager's stop timeout must be longer.
   */
  shutdownTimeoutMs: number;
  /** The built web app to serve; unset: packages/web/dist next to the server. */
  webDistDir: string | undefined;
  /**
   * Replaces every periodic job's interval (ms; JOB_INTERVAL_SECONDS), for tests of several
   * instances; unset: each job's own interval. Also runs the jobs when test hooks are on.
   */
  jobIntervalMs: number | undefined;
  /** Browser tests only: exposes POST /api/__test__/clock to move the server's clock forward. */
  testHooks: boolean;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

/** Validates an environment; never throws. */
export function loadConfig(env: Record<string, string | undefined>): ConfigResult {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        const shown =
          env[name] === undefined
            ? ''
            : ` (got "${name.includes('SECRET') || name.includes('PASSWORD') ? '***' : env[name]}")`;
        return `config error: ${name} ${issue.message}${shown}`;
      }),
    };
  }
  const e = parsed.data;
  return {
    ok: true,
    config: {
      port: e.PORT,
      host: e.HOST,
      dataDir: path.resolve(e.DATA_DIR),
      databaseUrl: e.DATABASE_URL,
      secretKey: e.SECRET_KEY,
      publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
      trustProxyHops: e.TRUST_PROXY,
      logLevel: e.LOG_LEVEL,
      adminUsername: e.ADMIN_USERNAME,
      adminPassword: e.ADMIN_PASSWORD,
      sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
      corsOrigins:
        e.CORS_ORIGINS === '*'
          ? '*'
          : e.CORS_ORIGINS.split(',')
              .map((o) => o.trim())
              .filter(Boolean),
      body: {
        timeoutMs: e.BODY_TIMEOUT_SECONDS * 1000,
        minBytes: Math.round(e.UPLOAD_MIN_KIB * 1024),
        windowMs: e.UPLOAD_RATE_WINDOW_SECONDS * 1000,
      },
      zip: { maxEntries: e.ZIP_MAX_ENTRIES, linkSeconds: e.ZIP_LINK_SECONDS },
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
      webDistDir: e.WEB_DIST_DIR === undefined ? undefined : path.resolve(e.WEB_DIST_DIR),
      jobIntervalMs: e.JOB_INTERVAL_SECONDS === undefined ? undefined : e.JOB_INTERVAL_SECONDS * 1000,
      testHooks: e.CUBBY_TEST_HOOKS,
    },
  };
}
