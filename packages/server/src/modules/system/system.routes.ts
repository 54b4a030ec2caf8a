/**
 * /api/health (checks the database; 503 `draining` once the process is shutting down, so a load
 * balancer stops sending it requests) and /api/version.
 */
import { Hono } from 'hono';
import type { Db } from '../../db/database.ts';
import { pingDatabase } from '../../db/database.ts';
import type { AppEnv } from '../../http/context.ts';
import { json, ok, renderError } from '../../http/envelope.ts';
import { storageUnavailable } from '../../errors/app-error.ts';
import { translate } from '../../errors/messages.ts';
import { route } from '../../http/route-docs.ts';
import { APP_NAME, APP_VERSION } from '../../version.ts';
import type { CacheBus } from '../../lib/cache-bus.ts';
import type { Clock } from '../../lib/clock.ts';

export function systemRoutes(
  db: Db,
  clock: Clock,
  cacheBus: Pick<CacheBus, 'state'>,
  draining: () => boolean,
) {
  const app = new Hono<AppEnv>();
  const startedAt = clock.now().getTime();

  app.get(
    '/health',
    route(
      {
        tag: 'System',
        summary:
          'Whether the server and its database answer (503 if not, or `draining` while shutting down); `cache`: whether changes made through other instances reach this one at once (`ok`), only after a few seconds (`degraded`), or there is one instance (`local`, SQLite)',
        auth: 'none',
      },
      async (c) => {
        const timestamp = clock.now().toISOString();
        if (!(await pingDatabase(db))) {
          return renderError(c, storageUnavailable('system.health_db_down'));
        }
        // `status` and `timestamp` at the top level too: the reference answer, which monitors read.
        // While shutting down the same shape says `draining` with 503, so balancers look elsewhere.
        const status = draining() ? 'draining' : 'ok';
        const code = status === 'ok' ? 200 : 503;
        return json(
          c,
          {
            code,
            message: translate(`system.health_${status}`, c.get('lang')),
            data: { status, database: 'ok', cache: cacheBus.state() },
            success: status === 'ok',
            status,
            timestamp,
          },
          code,
        );
      },
    ),
  );

  app.get(
    '/version',
    route({ tag: 'System', summary: 'Version, database kind and uptime', auth: 'none' }, (c) =>
      ok(c, 'system.version', {
        version: APP_VERSION,
        name: APP_NAME,
        environment: 'Node',
        storage: db.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite',
        nodeVersion: process.version,
        uptime: Math.round((clock.now().getTime() - startedAt) / 1000),
      }),
    ),
  );

  return app;
}
