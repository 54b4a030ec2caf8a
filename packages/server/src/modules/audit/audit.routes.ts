/**
 * /api/admin/audit (admin): the audit log, filtered and paged, and its CSV export — with the
 * admin's credentials, or through a short-lived link a browser navigates to (/api/audit/export).
 */
import { auditFilterSchema, auditListSchema, type AuditPage } from '@cubby/shared';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { ok } from '../../http/envelope.ts';
import { route } from '../../http/route-docs.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import type { AuditFilter } from './audit.repository.ts';
import type { AuditService } from './audit.service.ts';

/** The export as a download, streamed: the request's common headers are added after the route (http/answer.ts). */
function csv(audit: AuditService, filter: AuditFilter): Response {
  const name = `audit-${new Date().toISOString().slice(0, 10)}.csv`;
  return new Response(audit.exportCsv(filter), {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': contentDisposition('attachment', name),
      'cache-control': 'no-store',
    },
  });
}

/** ISO times as stored (UTC, milliseconds), so text comparison in the database orders them. */
function filterOf(query: AuditFilter): AuditFilter {
  const iso = (value: string | undefined) => (value ? new Date(value).toISOString() : undefined);
  return { ...query, from: iso(query.from), to: iso(query.to) };
}

const linkQuery = z.object({ token: z.string().max(8192).optional() });

export function auditRoutes(audit: AuditService, config: Pick<Config, 'publicUrl' | 'trustProxyHops'>) {
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
      (_c, { query }) => csv(audit, filterOf(query)),
    ),
  );

  app.post(
    '/admin/audit/export-link',
    route(
      {
        tag,
        summary: 'A link that downloads the CSV export without credentials (for a browser), for 5 minutes',
        description: `The body takes the export's filters. Answers \`{url, expires_at}\`; open \`url\` with a plain GET. It dies with the admin's password change.`,
        auth: 'admin',
        body: auditFilterSchema,
      },
      async (c: Context<AppEnv>, { body }) => {
        const link = await audit.exportLink(c.get('principal')!.id, filterOf(body));
        return ok(c, 'audit.link_ready', {
          url: `${publicOrigin(c, config)}/api/audit/export?token=${link.token}`,
          expires_at: link.expiresAt.toISOString(),
        });
      },
    ),
  );

  app.get(
    '/audit/export',
    route(
      {
        tag,
        summary: 'Downloads the CSV export an export link names (no credentials: the signed link is one)',
        auth: 'none',
        query: linkQuery,
        produces: 'text',
      },
      async (_c, { query }) => csv(audit, await audit.openExportLink(query.token)),
    ),
  );

  return app;
}
