/** /api/admin/audit (admin): the audit log, filtered and paged, and its CSV export. */
import { auditFilterSchema, auditListSchema, type AuditPage } from '@cubby/shared';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { route } from '../../http/route-docs.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import type { AuditFilter } from './audit.repository.ts';
import type { AuditService } from './audit.service.ts';

/** ISO times as stored (UTC, milliseconds), so text comparison in the database orders them. */
function filterOf(query: AuditFilter): AuditFilter {
  const iso = (value: string | undefined) => (value ? new Date(value).toISOString() : undefined);
  return { ...query, from: iso(query.from), to: iso(query.to) };
}

export function auditRoutes(audit: AuditService) {
  const app = new Hono<AppEnv>();
  const tag = 'Audit log';
  const filters =
    'Filters: `action`, `actor` (a name, any case, or an id), `outcome` (success or failure), `from` and `to` (ISO times, both included).';

  app.get(
    '/admin/audit',
    route(
      {
        tag,
        summary: 'The audit log, newest first: `{items, total, page, limit}` (limit at most 200)',
        description: filters,
        auth: 'admin',
        query: auditListSchema,
      },
      async (c, { query: { page, limit, ...filter } }) =>
        ok(c, 'audit.listed', (await audit.list(filterOf(filter), page, limit)) satisfies AuditPage),
    ),
  );

  app.get(
    '/admin/audit/export',
    route(
      {
        tag,
        summary: 'The audit log as CSV (newest first), streamed',
        description: `${filters} Cells that begin with = + - @ get a leading apostrophe, so no spreadsheet runs them.`,
        auth: 'admin',
        query: auditFilterSchema,
        produces: 'text',
      },
      (c, { query }) => {
        const name = `audit-${new Date().toISOString().slice(0, 10)}.csv`;
        // A stream: the request's common headers are added after the route (http/answer.ts).
        return new Response(audit.exportCsv(filterOf(query)), {
          status: 200,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': contentDisposition('attachment', name),
            'cache-control': 'no-store',
          },
        });
      },
    ),
  );

  return app;
}
