/** GET /api/admin/dashboard/stats: the admin dashboard's figures. */
import { Hono } from 'hono';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { route } from '../../http/route-docs.ts';
import type { DashboardService } from './dashboard.service.ts';

export function dashboardRoutes(dashboard: DashboardService) {
  const app = new Hono<AppEnv>();
  app.get(
    '/admin/dashboard/stats',
    route(
      {
        tag: 'Dashboard',
        summary:
          'Totals, live and ended shares, storage used per config, new shares per day (last 7 UTC days)',
        description:
          "CloudPaste's fields (`totalPastes`, `totalFiles`, `totalApiKeys`, `totalS3Configs`, `totalStorageUsed`, " +
          '`s3Buckets`, `lastWeekPastes`, `lastWeekFiles`: 7 counts, oldest first, ending today) and ours beside them. ' +
          'A config without a quota has `totalStorage` and `usagePercent` null.',
        auth: 'admin',
      },
      async (c) => ok(c, 'dashboard.stats', await dashboard.stats()),
    ),
  );
  return app;
}
