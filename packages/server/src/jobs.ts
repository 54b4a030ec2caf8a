/**
 * Periodic maintenance (purging expired sessions and shares, abandoned uploads, leftovers). Each job
 * is due once per interval across every instance on the database:
 *
 * - on each tick an instance takes the job's lock — on PostgreSQL `pg_try_advisory_lock` on a
 *   connection of its own (kept apart from the pool, so a running job never holds a pool
 *   connection), in this process on SQLite — and skips the tick when another instance holds it;
 * - under the lock it reads the job's row in `job_runs` and runs the job only when its last start
 *   is at least an interval ago, recording the start (and later the end) first;
 * - an instance that dies mid-run loses its connection and with it the lock; the next tick of
 *   another instance finds the job due (its last start is old) and takes over.
 *
 * A job runs once soon after start (when due), then on its interval; a failure is logged and the
 * job tries again next time. A job running longer than its interval is never started a second time
 * meanwhile (the lock), and ticks of one instance never overlap.
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from './db/database.ts';
import type { Clock } from './lib/clock.ts';

export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<number>;
}

export interface JobRunnerOptions {
  db: Db;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Names this instance in `job_runs.instance` and in the lock connection's application_name. */
  instance: string;
  /** Replaces every job's interval (JOB_INTERVAL_SECONDS: tests of several instances). */
  everyMs?: number;
  /** The first tick after start; default 5 s (or the interval when that is shorter). */
  firstDelayMs?: number;
}

export interface JobRunner {
  /** One tick of a job, as the timer runs it: whether it ran here. */
  tick(job: Job): Promise<'ran' | 'skipped'>;
  /** Closes the lock connection (after the last tick has ended). */
  close(): Promise<void>;
}

const FIRST_DELAY_MS = 5_000;
/** Timers may fire a little early against the wall clock: a job is due this much before its interval. */
const EARLY_SHARE = 0.05;
const EARLY_MAX_MS = 1_000;
/** The first key of every job's advisory lock (the second is the hash of the job's name). */
const LOCK_SPACE = 'cubby job';

/** Who may run a job now: one instance at a time. */
interface JobLocks {
  tryLock(name: string): Promise<boolean>;
  unlock(name: string): Promise<void>;
  close(): Promise<void>;
}

/** SQLite: one instance, so a lock in this process. */
class LocalLocks implements JobLocks {
  private readonly held = new Set<string>();
  tryLock(name: string): Promise<boolean> {
    if (this.held.has(name)) return Promise.resolve(false);
    this.held.add(name);
    return Promise.resolve(true);
  }
  unlock(name: string): Promise<void> {
    this.held.delete(name);
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * PostgreSQL: session advisory locks on one connection of this instance. When that connection
 * breaks, its locks are gone (the server released them); the next tick connects again.
 */
class PgLocks implements JobLocks {
  private client: Promise<pg.Client> | undefined;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly instance: string,
    private readonly logger: JobRunnerOptions['logger'],
  ) {}

  private connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: `cubby jobs ${this.instance}`.slice(0, 63),
      keepAlive: true,
    });
    const forget = () => {
      if (this.client === connecting) this.client = undefined;
    };
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'job lock connection lost; its locks are released');
      forget();
    });
    client.on('end', forget);
    const connecting = client.connect().then(
      () => client,
      (error: unknown) => {
        forget();
        throw error;
      },
    );
    this.client = connecting;
    return connecting;
  }

  async tryLock(name: string): Promise<boolean> {
    if (this.closed) return false;
    const client = await this.connection();
    const { rows } = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock(hashtext($1), hashtext($2)) as locked',
      [LOCK_SPACE, name],
    );
    return rows[0]!.locked;
  }

  async unlock(name: string): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    // A lost connection released the lock already.
    await client?.query('select pg_advisory_unlock(hashtext($1), hashtext($2))', [LOCK_SPACE, name]);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, clock, logger, instance } = options;
  const locks: JobLocks =
    db.dialect === 'postgres' && db.connectionString
      ? new PgLocks(db.connectionString, instance, logger)
      : new LocalLocks();
  const everyMs = (job: Job) => options.everyMs ?? job.everyMs;

  /** Under the lock: records the start and answers true when the job is due. */
  async function claim(job: Job): Promise<boolean> {
    const now = clock.now();
    const early = Math.min(EARLY_MAX_MS, everyMs(job) * EARLY_SHARE);
    const dueBefore = new Date(now.getTime() - everyMs(job) + early).toISOString();
    const last = await db.kysely
      .selectFrom('job_runs')
      .select('last_started_at')
      .where('name', '=', job.name)
      .executeTakeFirst();
    if (last && last.last_started_at > dueBefore) return false;
    const started = now.toISOString();
    await db.kysely
      .insertInto('job_runs')
      .values({ name: job.name, last_started_at: started, last_finished_at: null, runs: 1, instance })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          last_started_at: started,
          last_finished_at: null,
          runs: sql`job_runs.runs + 1`,
          instance,
        }),
      )
      .execute();
    return true;
  }

  async function tick(job: Job): Promise<'ran' | 'skipped'> {
    if (!(await locks.tryLock(job.name))) return 'skipped';
    try {
      if (!(await claim(job))) return 'skipped';
      try {
        const count = await job.run();
        if (count > 0) logger.info({ job: job.name, count }, 'job done');
      } finally {
        await db.kysely
          .updateTable('job_runs')
          .set({ last_finished_at: clock.now().toISOString() })
          .where('name', '=', job.name)
          .where('instance', '=', instance)
          .execute();
      }
      return 'ran';
    } finally {
      await locks.unlock(job.name);
    }
  }

  return { tick, close: () => locks.close() };
}

/**
 * Runs each job on its timer through a {@link JobRunner}; `stop` ends the timers and resolves once
 * running jobs have ended and the lock connection is closed.
 */
export function startJobs(options: JobRunnerOptions, jobs: Job[]): { stop(): Promise<void> } {
  const runner = createJobRunner(options);
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  let stopped = false;
  for (const job of jobs) {
    const every = options.everyMs ?? job.everyMs;
    const schedule = (delayMs: number) => {
      const timer = setTimeout(() => {
        const run = runner
          .tick(job)
          .catch((err: unknown) => options.logger.warn({ err, job: job.name }, 'job failed'))
          .finally(() => {
            running.delete(run);
            if (!stopped) schedule(every);
          });
        running.add(run);
      }, delayMs);
      timer.unref();
      timers.set(job.name, timer);
    };
    schedule(Math.min(options.firstDelayMs ?? FIRST_DELAY_MS, every));
  }
  return {
    async stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.allSettled([...running]);
      await runner.close();
    },
  };
}
