/**
 * Notifications (docs/api.md "Notifications"): the one `notify(event)` other modules call when a
 * share is created, viewed, expired or uploaded to; outgoing webhooks that carry those events; and
 * email for "upload received" and "share expiring soon".
 *
 * Webhooks. `notify` writes one delivery per subscribed webhook (the body fixed then) and makes its
 * first attempt at once, in the background: the request that caused the event never waits for a
 * receiver. Each attempt POSTs the JSON body with `X-Cubby-Timestamp` and `X-Cubby-Signature:
 * sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" under the webhook's secret>`, through
 * lib/safe-fetch.ts (no private, loopback or metadata address unless the admin's allowlist names
 * it; no redirects). A 2xx answer delivers it; anything else is tried again after 1 min, 5 min,
 * 30 min, 2 h and 6 h, then given up (six attempts). An address the rules refuse is given up at
 * once. Retries come from the database (`runDue`, a job run by one instance at a time, jobs.ts);
 * each attempt first takes its delivery with one conditional UPDATE, so two instances never send
 * the same attempt. Secrets are sealed at rest, never answered and never logged.
 *
 * Expiry. `scanExpiries` (a job) finds shares whose expiry has passed (share.expired, once per
 * share) and those expiring within 24 h (an email to the owner, once per share): share_notices
 * records which share had which notice.
 */
import { createHmac, randomUUID } from 'node:crypto';
import {
  NOTIFY_EVENTS,
  NOTIFY_SECRET_MASK,
  type NotifyEvent,
  WEBHOOK_TEST_EVENT,
  type Webhook,
  type WebhookDelivery,
  type webhookCreateSchema,
  type webhookUpdateSchema,
} from '@cubby/shared';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.ts';
import { notFound } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { type Resolver, safeFetch, UrlFetchError } from '../../lib/safe-fetch.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { APP_NAME, APP_VERSION } from '../../version.ts';
import type { Mailer } from './mail.ts';
import type { NoticeShare, NotificationsRepository } from './notifications.repository.ts';

/** Waits before the 2nd, 3rd, … attempt; after the last, the delivery is given up. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** How long an attempt holds its delivery: longer than an attempt can take (timeouts below). */
const LEASE_MS = 2 * 60_000;
const TIMEOUT_MS = 10_000;
/** A receiver's answer is read no further than this (it is not kept). */
const MAX_ANSWER_BYTES = 64 * 1024;
const DUE_BATCH = 100;
const NOTICE_BATCH = 200;
const DAY_MS = 24 * 3600_000;
const DELIVERIES_LISTED = 100;
const USER_AGENT = `${APP_NAME}/${APP_VERSION} (webhook)`;
/** How emails name the product. */
const PRODUCT = 'Cubby';

/** A share as events name it. */
export interface EventShare {
  kind: 'paste' | 'file' | (string & {});
  id: string;
  slug: string;
  /** A paste's remark or a file's name, when it has one. */
  name?: string | null;
  /** The person who owns it (who gets its email), when a person does. */
  owner_id?: string | null;
  /** Where its page is below the public origin, when not `/<kind>/<slug>` (an upload request's list). */
  page?: string;
}

export interface ShareEvent {
  event: NotifyEvent;
  share: EventShare;
  /** Facts of the event (an upload's file name and size, …). */
  data?: Record<string, unknown>;
}

/** What other modules are handed: fire and forget, never throws. */
export type Notify = (event: ShareEvent) => void;

export interface NotificationsDeps {
  repo: NotificationsRepository;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  secretKey: string;
  /** Where share pages live (PUBLIC_URL, else the listening address). */
  publicBaseUrl: string;
  /** Internal hosts outgoing requests may reach (the admin's URL allowlist). */
  allowlist: () => Promise<string[]>;
  resolver?: Resolver;
}

export class NotificationsService {
  private readonly box: SecretBox;
  /** Background work started by notify (tests and shutdown wait for it). */
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly deps: NotificationsDeps) {
    this.box = new SecretBox(deps.secretKey, 'cubby webhook secrets v1');
  }

  /** The one entry point: records and starts what the event calls for. Never throws, never waits. */
  readonly notify: Notify = (event) => {
    this.track(
      this.handle(event).catch((err: unknown) =>
        this.deps.logger.warn({ err, event: event.event, share: event.share.id }, 'a notification failed'),
      ),
    );
  };

  /** Resolves once the work notify started has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  private track(work: Promise<unknown>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  private async handle(event: ShareEvent): Promise<void> {
    const hooks = (await this.deps.repo.enabledWebhooks()).filter((h) =>
      this.eventsOf(h).includes(event.event),
    );
    const ids = await this.record(hooks, event.event, this.body(event.event, event));
    if (event.event === 'share.uploaded') await this.mailOwner(event.share, this.uploadMail(event));
    await Promise.all(ids.map((id) => this.attempt(id)));
  }

  // ---- webhooks: management ---------------------------------------------------------------------

  async list(): Promise<Webhook[]> {
    return (await this.deps.repo.listWebhooks()).map((row) => this.toWebhook(row));
  }

  async create(input: z.output<typeof webhookCreateSchema>): Promise<Webhook> {
    const now = this.deps.clock.now().toISOString();
    const id = randomUUID();
    const row: WebhooksTable = {
      id,
      name: input.name,
      url: input.url,
      secret: this.box.seal(input.secret, id),
      events: JSON.stringify(input.events),
      enabled: input.enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    await this.deps.repo.insertWebhook(row);
    return this.toWebhook(row);
  }

  async update(id: string, input: z.output<typeof webhookUpdateSchema>): Promise<Webhook> {
    const row = await this.webhook(id);
    const changes: Partial<WebhooksTable> = { updated_at: this.deps.clock.now().toISOString() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.url !== undefined) changes.url = input.url;
    if (input.secret !== undefined && input.secret !== NOTIFY_SECRET_MASK) {
      changes.secret = this.box.seal(input.secret, id);
    }
    if (input.events !== undefined) changes.events = JSON.stringify(input.events);
    if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0;
    await this.deps.repo.updateWebhook(id, changes);
    return this.toWebhook({ ...row, ...changes });
  }

  async remove(id: string): Promise<void> {
    if (!(await this.deps.repo.deleteWebhook(id))) throw notFound('notifications.webhook_not_found');
  }

  /** Sends a `webhook.test` event now (one attempt, retried like any other) and answers its delivery. */
  async test(id: string): Promise<WebhookDelivery> {
    const row = await this.webhook(id);
    const body = this.body(WEBHOOK_TEST_EVENT, { data: { webhook_id: id } });
    const [deliveryId] = await this.record([row], WEBHOOK_TEST_EVENT, body);
    await this.attempt(deliveryId!);
    return toDelivery((await this.deps.repo.findDelivery(deliveryId!))!);
  }

  async deliveries(id: string): Promise<WebhookDelivery[]> {
    await this.webhook(id);
    return (await this.deps.repo.deliveriesOf(id, DELIVERIES_LISTED)).map(toDelivery);
  }

  // ---- webhooks: delivery -----------------------------------------------------------------------

  /** Attempts every delivery that is due (the retry job); answers how many were attempted. */
  async runDue(): Promise<number> {
    const ids = await this.deps.repo.dueDeliveries(this.deps.clock.now().toISOString(), DUE_BATCH);
    for (const id of ids) await this.attempt(id);
    return ids.length;
  }

  private async record(hooks: WebhooksTable[], event: string, payload: string): Promise<string[]> {
    const now = this.deps.clock.now().toISOString();
    const rows: WebhookDeliveriesTable[] = hooks.map((hook) => ({
      id: randomUUID(),
      webhook_id: hook.id,
      event,
      payload,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      last_status: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    }));
    await this.deps.repo.insertDeliveries(rows);
    return rows.map((r) => r.id);
  }

  /** One attempt of a delivery, if it is due and no one else took it. */
  private async attempt(id: string): Promise<void> {
    const delivery = await this.deps.repo.findDelivery(id);
    if (!delivery || delivery.status !== 'pending') return;
    const hook = await this.deps.repo.findWebhook(delivery.webhook_id);
    if (!hook) return;
    const now = this.deps.clock.now();
    const lease = new Date(now.getTime() + LEASE_MS).toISOString();
    if (!(await this.deps.repo.claim(delivery, now.toISOString(), lease))) return;
    const attempts = delivery.attempts + 1;

    const outcome = await this.post(hook, delivery);
    const finished = this.deps.clock.now();
    const changes: Partial<WebhookDeliveriesTable> = {
      last_status: outcome.status,
      last_error: outcome.error,
      updated_at: finished.toISOString(),
    };
    if (outcome.delivered) Object.assign(changes, { status: 'delivered', next_attempt_at: null });
    else if (outcome.final || attempts >= MAX_ATTEMPTS) {
      Object.assign(changes, { status: 'failed', next_attempt_at: null });
    } else {
      const retryAt = new Date(finished.getTime() + RETRY_DELAYS_MS[attempts - 1]!);
      changes.next_attempt_at = retryAt.toISOString();
    }
    await this.deps.repo.finishAttempt(id, changes);
    if (!outcome.delivered) {
      // The webhook and what went wrong: never its secret, nor the body.
      this.deps.logger.info(
        { webhookId: hook.id, deliveryId: id, attempts, status: outcome.status, error: outcome.error },
        'a webhook delivery attempt failed',
      );
    }
  }

  private async post(
    hook: WebhooksTable,
    delivery: WebhookDeliveriesTable,
  ): Promise<{ delivered: boolean; final: boolean; status: number | null; error: string | null }> {
    const body = Buffer.from(delivery.payload);
    const timestamp = String(Math.floor(this.deps.clock.now().getTime() / 1000));
    try {
      const res = await safeFetch(hook.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': USER_AGENT,
          'x-cubby-event': delivery.event,
          'x-cubby-delivery': delivery.id,
          'x-cubby-timestamp': timestamp,
          'x-cubby-signature': `sha256=${signature(this.box.open(hook.secret, hook.id), timestamp, delivery.payload)}`,
        },
        allowlist: await this.deps.allowlist(),
        maxBytes: MAX_ANSWER_BYTES,
        connectTimeoutMs: TIMEOUT_MS,
        idleTimeoutMs: TIMEOUT_MS,
        ...(this.deps.resolver ? { resolver: this.deps.resolver } : {}),
      });
      await res.body.cancel().catch(() => undefined);
      const delivered = res.status >= 200 && res.status < 300;
      return { delivered, final: false, status: res.status, error: delivered ? null : `HTTP ${res.status}` };
    } catch (error) {
      if (!(error instanceof UrlFetchError)) throw error;
      return {
        delivered: false,
        // An address the rules refuse stays refused: no point in asking again.
        final: error.code === 'BLOCKED_ADDRESS' || error.code === 'INVALID_URL' || error.code === 'PROTOCOL',
        status: null,
        error: `${error.code}: ${error.message}`.slice(0, 500),
      };
    }
  }

  private body(
    event: string,
    fields: { share?: EventShare; data?: Record<string, unknown> | undefined },
  ): string {
    const share = fields.share && {
      kind: fields.share.kind,
      id: fields.share.id,
      slug: fields.share.slug,
      name: fields.share.name ?? null,
      url: this.shareUrl(fields.share),
    };
    return JSON.stringify({
      id: randomUUID(),
      event,
      occurred_at: this.deps.clock.now().toISOString(),
      ...(share ? { share } : {}),
      ...(fields.data ? { data: fields.data } : {}),
    });
  }

  private shareUrl(share: EventShare): string {
    return `${this.deps.publicBaseUrl}${share.page ?? `/${share.kind}/${encodeURIComponent(share.slug)}`}`;
  }

  // ---- expiry -----------------------------------------------------------------------------------

  /** share.expired for shares whose expiry passed, email for those expiring within a day (a job). */
  async scanExpiries(): Promise<number> {
    const now = this.deps.clock.now();
    const iso = (ms: number) => new Date(now.getTime() + ms).toISOString();
    let noticed = 0;
    // Expired within the last week: older ones went before this ran (or before notifications).
    for (const share of await this.deps.repo.sharesExpiring(
      iso(-7 * DAY_MS),
      iso(0),
      'expired',
      NOTICE_BATCH,
    )) {
      if (!(await this.deps.repo.markNoticed(share.kind, share.id, 'expired', iso(0)))) continue;
      noticed++;
      await this.handle({ event: 'share.expired', share, data: { expires_at: share.expires_at } });
    }
    for (const share of await this.deps.repo.sharesExpiring(iso(0), iso(DAY_MS), 'expiring', NOTICE_BATCH)) {
      if (!(await this.deps.repo.markNoticed(share.kind, share.id, 'expiring', iso(0)))) continue;
      noticed++;
      await this.mailOwner(share, this.expiringMail(share));
    }
    return noticed;
  }

  // ---- email ------------------------------------------------------------------------------------

  /** A test message to `to`, or to the admins' addresses. Throws what the SMTP server said. */
  async sendTestMail(to: string | undefined): Promise<{ to: string[]; sent: boolean }> {
    const recipients = to ? [to] : await this.deps.repo.adminEmails();
    const sent = await this.deps.mailer.send({
      to: recipients,
      subject: `${PRODUCT}: test email`,
      text: `This is a test email from ${PRODUCT} at ${this.deps.publicBaseUrl}. Email notifications work.`,
    });
    return { to: recipients, sent };
  }

  private async mailOwner(
    share: EventShare | NoticeShare,
    mail: { subject: string; text: string },
  ): Promise<void> {
    const own = share.owner_id ? await this.deps.repo.emailOf(share.owner_id) : null;
    const to = own ? [own] : await this.deps.repo.adminEmails();
    try {
      await this.deps.mailer.send({ to, ...mail });
    } catch (err) {
      this.deps.logger.warn({ err, share: share.id }, 'a notification email could not be sent');
    }
  }

  private uploadMail(event: ShareEvent) {
    const file = typeof event.data?.['name'] === 'string' ? event.data['name'] : undefined;
    const name = file ?? (event.share.name || event.share.slug);
    return {
      subject: `${PRODUCT}: upload received — ${name}`,
      text: `Someone uploaded "${name}" through your link.\n\n${this.shareUrl(event.share)}\n`,
    };
  }

  private expiringMail(share: NoticeShare) {
    const name = share.name || share.slug;
    return {
      subject: `${PRODUCT}: share expiring soon — ${name}`,
      text: `Your share "${name}" expires at ${share.expires_at} (UTC), within 24 hours.\n\n${this.shareUrl(share)}\n`,
    };
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private async webhook(id: string): Promise<WebhooksTable> {
    const row = await this.deps.repo.findWebhook(id);
    if (!row) throw notFound('notifications.webhook_not_found');
    return row;
  }

  private eventsOf(row: WebhooksTable): NotifyEvent[] {
    try {
      const events = JSON.parse(row.events) as unknown;
      return Array.isArray(events) ? NOTIFY_EVENTS.filter((e) => events.includes(e)) : [];
    } catch {
      return [];
    }
  }

  private toWebhook(row: WebhooksTable): Webhook {
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      secret: NOTIFY_SECRET_MASK,
      events: this.eventsOf(row),
      enabled: row.enabled === 1,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}

/** The signature of a delivery: hex HMAC-SHA256 of `<timestamp>.<body>`. */
export function signature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

function toDelivery(row: WebhookDeliveriesTable): WebhookDelivery {
  const { payload: _payload, ...rest } = row;
  return rest;
}
