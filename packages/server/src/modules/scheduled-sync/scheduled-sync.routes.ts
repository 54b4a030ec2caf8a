/**
 * Scheduled sync's admin routes (docs/api.md, "Scheduled sync"), under CloudPaste 1.9's
 * /api/admin/scheduled/jobs: the jobs, their run history, run now (or a dry run) and cancel.
 */
import { syncJobCreateSchema, syncJobUpdateSchema, syncRunSchema } from '@cubby/shared';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { noteAudit, route } from '../../http/route-docs.ts';
import type { ScheduledSyncService } from './scheduled-sync.service.ts';

const runsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  before: z.string().max(40).optional(),
});

export function scheduledSyncRoutes(sync: ScheduledSyncService) {
  const app = new Hono<AppEnv>();
  const tag = 'Scheduled sync';
  const auth = 'admin';
  const lang = (c: Context<AppEnv>) => c.get('lang') ?? 'zh';
  const taskId = (c: Context<AppEnv>): string => c.req.param('taskId')!;
  const base = '/admin/scheduled/jobs';

  app.get(
    base,
    route(
      { tag, summary: 'The scheduled sync jobs, with their schedule, last run and next run', auth },
      async (c) => ok(c, 'scheduled.jobs_listed', { items: await sync.list() }),
    ),
  );

  app.post(
    base,
    route(
      {
        tag,
        summary:
          'Adds a job: `name`, `sourcePath`, `targetPath` (folders of the mount tree), `scheduleType` (`interval` with `intervalSec` ≥ 60, or `cron` with a five-field `cronExpression`, UTC), `enabled`, `deleteExtra`',
        auth,
        body: syncJobCreateSchema,
        audit: { action: 'scheduled_job.create' },
      },
      async (c, { body }) => {
        const job = await sync.create(c.get('principal')!, body);
        noteAudit(c, { target: job.taskId, details: { source: job.sourcePath, target: job.targetPath } });
        return ok(c, 'scheduled.job_created', job, 201);
      },
    ),
  );

  app.get(
    `${base}/:taskId`,
    route({ tag, summary: 'One job', auth }, async (c) =>
      ok(c, 'scheduled.job_loaded', await sync.get(taskId(c))),
    ),
  );

  app.put(
    `${base}/:taskId`,
    route(
      {
        tag,
        summary: 'Changes a job (only the fields sent); a changed schedule counts from now',
        auth,
        body: syncJobUpdateSchema,
        audit: { action: 'scheduled_job.update', target: taskId },
      },
      async (c, { body }) =>
        ok(c, 'scheduled.job_updated', await sync.update(c.get('principal')!, taskId(c), body)),
    ),
  );

  app.delete(
    `${base}/:taskId`,
    route(
      {
        tag,
        summary: 'Deletes a job and its history (a run going on here is cancelled first)',
        auth,
        audit: { action: 'scheduled_job.delete', target: taskId },
      },
      async (c) => {
        await sync.remove(taskId(c));
        return ok(c, 'scheduled.job_deleted', { taskId: taskId(c) });
      },
    ),
  );

  app.get(
    `${base}/:taskId/runs`,
    route(
      {
        tag,
        summary:
          "A job's runs, newest first: `limit` (default 20, at most 100) from `before` (the `nextBefore` of the previous page)",
        auth,
        query: runsQuery,
      },
      async (c, { query }) => ok(c, 'scheduled.runs_listed', await sync.runs(taskId(c), lang(c), query)),
    ),
  );

  app.post(
    `${base}/:taskId/run`,
    route(
      {
        tag,
        summary:
          'Runs a job now (202, the run as it starts); with `dryRun` (or `dry_run`) answers when done with what would change, writing nothing. 409 while it runs',
        auth,
        body: syncRunSchema,
        audit: { action: 'scheduled_job.run', target: taskId },
      },
      async (c, { body }) => {
        const dryRun = body.dryRun ?? body.dry_run ?? false;
        noteAudit(c, { details: { dry_run: String(dryRun) } });
        const run = await sync.runNow(taskId(c), dryRun, lang(c));
        return ok(c, 'scheduled.run_started', run, dryRun ? 200 : 202);
      },
    ),
  );

  app.post(
    `${base}/:taskId/cancel`,
    route(
      {
        tag,
        summary: "Cancels the job's run going on (answers the run once stopped); 409 when none runs here",
        auth,
        audit: { action: 'scheduled_job.cancel', target: taskId },
      },
      async (c) => ok(c, 'scheduled.run_cancelled', await sync.cancel(taskId(c), lang(c))),
    ),
  );

  return app;
}
