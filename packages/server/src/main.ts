/**
 * Entry point: read config once, open the database and run migrations, create the first admin,
 * serve, and shut down cleanly on SIGTERM/SIGINT: health answers 503 `draining`, no new connections,
 * requests in flight (uploads included) finish within SHUTDOWN_TIMEOUT_SECONDS, each connection closes
 * after its answer, then the database closes and the process exits 0 (1 when the limit cut requests).
 */
import fs from 'node:fs';
import { createApp } from './app.ts';
import { startJobs } from './jobs.ts';
import { loadConfig } from './config/config.ts';
import { resolveSecretKey } from './config/secret-key.ts';
import { migrate, openDatabase } from './db/database.ts';
import { AdjustableClock, systemClock } from './lib/clock.ts';
import { createLogger } from './logger.ts';
import { drainServer, serveApp } from './http/node-server.ts';
import { firstAdminNotice } from './cli/first-admin-notice.ts';

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  for (const line of loaded.errors) console.error(line);
  process.exit(1);
}
const config = loaded.config;
const logger = createLogger(config.logLevel);

fs.mkdirSync(config.dataDir, { recursive: true });
const secretKey = resolveSecretKey(config.dataDir, config.secretKey);
const db = openDatabase(config);
try {
  await migrate(db);
} catch (error) {
  console.error(`database error: ${(error as Error).message}`);
  process.exit(1);
}

const clock = config.testHooks ? new AdjustableClock() : systemClock;
if (config.testHooks)
  logger.warn('CUBBY_TEST_HOOKS is on: the clock can be moved through the API; never use this in production');
let stopping = false;
const { app, services } = createApp({
  config,
  db,
  clock,
  logger,
  secretKey,
  webDistDir: config.webDistDir,
  draining: () => stopping,
});

const initial = await services.auth.ensureInitialAdmin(config.adminUsername, config.adminPassword);
if (initial && !initial.generatedPassword) {
  logger.info(
    { username: initial.username },
    'created the first administrator from ADMIN_USERNAME/ADMIN_PASSWORD',
  );
}

await services.storageConfigs.ensureDefault();
// What a crash (kill -9, power loss) of an earlier run left behind goes before anything is served:
// its unfinished uploads' slugs are free again, their partial files gone.
await services.uploads.freeOrphanedStreams();
await services.uploads.removeLeftoverTemps();
await services.fs.uploads.removeLeftoverSpools();
// Copy tasks an earlier run left unfinished are failed, never reported as done.
await services.fsTasks.failOrphans();
await services.scheduledSync.failOrphans();

// With browser-test hooks the tests move the clock and clear shares themselves; a purge at a moment
// of its own choosing would race them, so the periodic jobs stay off (unless JOB_INTERVAL_SECONDS
// asks for them). Each job runs once per interval across every instance (jobs.ts).
const jobs = startJobs(
  { db, clock, logger, instance: services.instanceId, everyMs: config.jobIntervalMs },
  config.testHooks && config.jobIntervalMs === undefined
    ? []
    : [
        {
          name: 'purge expired sessions',
          everyMs: 3600_000,
          run: () => services.auth.purgeExpiredSessions(),
        },
        { name: 'purge expired and used-up pastes', everyMs: 5 * 60_000, run: () => services.pastes.purge() },
        {
          name: 'purge expired and used-up file shares',
          everyMs: 5 * 60_000,
          run: () => services.files.purge(),
        },
        {
          name: 'abort abandoned uploads',
          everyMs: 3600_000,
          run: () => services.uploads.purgeAbandonedUploads(),
        },
        {
          name: 'end expired tus uploads',
          everyMs: 3600_000,
          run: () => services.tus.purgeExpired(),
        },
        {
          name: 'free uploads whose process is gone',
          everyMs: 60_000,
          run: () => services.uploads.freeOrphanedStreams(),
        },
        {
          name: 'remove temp files of crashed writes',
          everyMs: 3600_000,
          run: () => services.uploads.removeLeftoverTemps(),
        },
        {
          name: 'fail copy tasks whose process is gone',
          everyMs: 60_000,
          run: () => services.fsTasks.failOrphans(),
        },
        {
          name: 'purge audit entries past their retention',
          everyMs: 3600_000,
          run: () => services.audit.purge(),
        },
        {
          name: 'deliver webhooks whose retry is due',
          everyMs: 30_000,
          run: () => services.notifications.runDue(),
        },
        {
          name: 'notify of expired and soon-expiring shares',
          everyMs: 60_000,
          run: () => services.notifications.scanExpiries(),
        },
        {
          // Used bytes follow every door's changes; this corrects what happened behind their back.
          name: 'recount the bytes each storage holds',
          everyMs: 6 * 3600_000,
          run: async () =>
            services.quota.recountAll(
              await services.storageConfigs.repo.list({ publicOnly: false }),
              (id, error) => logger.warn({ configId: id, err: error }, 'storage recount failed'),
            ),
        },
        {
          // Starts the scheduled sync jobs that are due (and fails runs whose process is gone).
          name: 'scheduled-sync',
          everyMs: 30_000,
          run: () => services.scheduledSync.runDue(),
        },
        {
          name: 'remove form uploads spooled by crashed requests',
          everyMs: 3600_000,
          run: () => services.fs.uploads.removeLeftoverSpools(),
        },
      ],
);

const server = serveApp({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  logger.info({ address: info.address, port: info.port, database: db.dialect }, 'listening');
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${info.port}`;
  // The first administrator's random password is printed once, on purpose, to the console only (it
  // is stored as an argon2id hash), and last, so it is the first thing a newcomer sees.
  const notice = initial?.generatedPassword
    ? firstAdminNotice(initial.username, initial.generatedPassword, url)
    : '';
  console.log(`Cubby is serving ${url}${notice}`);
});

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal, limitSeconds: config.shutdownTimeoutMs / 1000 }, 'shutting down');
  logger.flush();
  void jobs.stop();
  // Running copy tasks stop now (recorded as interrupted, their partial targets never kept).
  const tasksStopped = Promise.all([services.fsTasks.stopAll(), services.scheduledSync.stopAll()]);
  const finished = await drainServer(server, config.shutdownTimeoutMs, {
    onListenerClosed: () => {
      logger.info('no longer accepting connections');
      logger.flush();
    },
  });
  if (!finished) {
    logger.warn(
      `requests in flight did not finish within SHUTDOWN_TIMEOUT_SECONDS (${config.shutdownTimeoutMs / 1000} s); cut`,
    );
  }
  try {
    await tasksStopped;
    await services.cacheBus.close();
    await services.storageConfigs.close();
    await db.close();
  } catch (error) {
    logger.warn({ err: error }, 'could not close cleanly');
  }
  logger.info('stopped');
  logger.flush(() => process.exit(finished ? 0 : 1));
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
