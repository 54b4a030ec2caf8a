/**
 * Notifications' admin routes (docs/api.md "Notifications"): webhooks under /api/admin/webhooks
 * (secrets masked), their test and delivery log; the SMTP settings group (CloudPaste 1.9's
 * /api/admin/settings shape, group `smtp`, the password masked) and a test email.
 */
import { smtpSettingsSchema, smtpTestSchema, webhookCreateSchema, webhookUpdateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import { z } from 'zod';
import { badRequest, conflict, upstreamFailed } from '../../errors/app-error.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import type { Mailer } from './mail.ts';
import type { NotificationsService } from './notifications.service.ts';

const groupQuery = z.object({ group: z.string().max(50).optional() });
const SMTP_GROUP = 'smtp';

export function notificationsRoutes(notifications: NotificationsService, mailer: Mailer) {
  const app = new Hono<AppEnv>();
  const tag = 'Notifications';
  const auth = 'admin';

  app.get(
    '/admin/webhooks',
    route({ tag, summary: 'The outgoing webhooks (secrets masked)', auth }, async (c) =>
      ok(c, 'notifications.webhooks_listed', await notifications.list()),
    ),
  );

  app.post(
    '/admin/webhooks',
    route(
      {
        tag,
        summary:
          'Adds a webhook: `url`, `secret` (16+ characters, the HMAC key), `events`, `name`, `enabled`',
        auth,
        body: webhookCreateSchema,
        audit: { action: 'webhook.create' },
      },
      async (c, { body }) => {
        const hook = await notifications.create(body);
        noteAudit(c, { target: hook.id, details: { url: hook.url } });
        return ok(c, 'notifications.webhook_created', hook, 201);
      },
    ),
  );

  app.put(
    '/admin/webhooks/:id',
    route(
      {
        tag,
        summary: 'Changes a webhook (the masked secret sent back keeps the stored one)',
        auth,
        body: webhookUpdateSchema,
        audit: { action: 'webhook.update', target: idParam },
      },
      async (c, { body }) =>
        ok(c, 'notifications.webhook_updated', await notifications.update(c.req.param('id')!, body)),
    ),
  );

  app.delete(
    '/admin/webhooks/:id',
    route(
      {
        tag,
        summary: 'Deletes a webhook and its delivery log',
        auth,
        audit: { action: 'webhook.delete', target: idParam },
      },
      async (c) => {
        await notifications.remove(c.req.param('id')!);
        return ok(c, 'notifications.webhook_deleted', { id: c.req.param('id')! });
      },
    ),
  );

  app.post(
    '/admin/webhooks/:id/test',
    route({ tag, summary: 'Sends a `webhook.test` event now; answers its delivery', auth }, async (c) =>
      ok(c, 'notifications.webhook_tested', await notifications.test(c.req.param('id')!)),
    ),
  );

  app.get(
    '/admin/webhooks/:id/deliveries',
    route({ tag, summary: "A webhook's last 100 deliveries, newest first", auth }, async (c) =>
      ok(c, 'notifications.deliveries_listed', await notifications.deliveries(c.req.param('id')!)),
    ),
  );

  app.get(
    '/admin/settings',
    route(
      {
        tag,
        summary: 'A settings group: `group=smtp`, the email settings (password masked)',
        auth,
        query: groupQuery,
      },
      async (c, { query }) => {
        if ((query.group ?? SMTP_GROUP) !== SMTP_GROUP) throw badRequest('notifications.smtp_group_unknown');
        return ok(c, 'notifications.smtp_loaded', await mailer.read());
      },
    ),
  );

  for (const path of ['/admin/settings', '/admin/settings/group/:group'] as const) {
    app.put(
      path,
      route(
        {
          tag,
          summary:
            'Saves the email settings (`group=smtp`): host ("" turns email off), port, security, username, password (the masked value keeps the stored one), from',
          auth,
          query: groupQuery,
          body: smtpSettingsSchema,
          audit: { action: 'settings.smtp_update' },
        },
        async (c, { query, body }) => {
          const group = c.req.param('group') ?? query.group ?? SMTP_GROUP;
          if (group !== SMTP_GROUP) throw badRequest('notifications.smtp_group_unknown');
          const saved = await mailer.update(body);
          noteAudit(c, { details: { host: saved.host, enabled: String(saved.enabled) } });
          return ok(c, 'notifications.smtp_saved', saved);
        },
      ),
    );
  }

  app.post(
    '/admin/smtp/test',
    route(
      { tag, summary: 'Sends a test email to `to` (or to the admins)', auth, body: smtpTestSchema },
      async (c, { body }) => {
        if (!(await mailer.read()).enabled) throw conflict('notifications.smtp_off');
        let result;
        try {
          result = await notifications.sendTestMail(body.to);
        } catch (error) {
          const reason = error instanceof Error ? error.message.slice(0, 300) : 'unknown';
          throw upstreamFailed('notifications.smtp_failed', { reason });
        }
        if (!result.sent) throw badRequest('notifications.smtp_no_recipient');
        return ok(c, 'notifications.smtp_test_sent', { to: result.to });
      },
    ),
  );

  return app;
}
