/**
 * Periodic maintenance (purging expired sessions and shares). Each job runs once soon after start,
 * then on its interval; a failure is logged and the job tries again next time. Running the same
 * purge on several instances at once is harmless: each is one idempotent DELETE.
 */
import type { Logger } from 'pino';

export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<number>;
}

export function startJobs(logger: Logger, jobs: Job[]): { stop(): void } {
  const timers = jobs.flatMap((job) => {
    const tick = () => {
      job
        .run()
        .then((count) => count > 0 && logger.info({ job: job.name, count }, 'job done'))
        .catch((err: unknown) => logger.warn({ err, job: job.name }, 'job failed'));
    };
    const first = setTimeout(tick, 5_000);
    const every = setInterval(tick, job.everyMs);
    first.unref();
    every.unref();
    return [first, every];
  });
  return { stop: () => timers.forEach((t) => clearTimeout(t)) };
}
