/**
 * Form logic of the notifications screen: the webhook dialog's and the SMTP form's values as typed,
 * the client-side checks (the server checks again with `webhookCreateSchema` / `smtpSettingsSchema`)
 * and the bodies sent. A stored secret shows as its mask: left as is, it is kept.
 */
import {
  NOTIFY_EVENTS,
  NOTIFY_SECRET_MASK,
  type NotifyEvent,
  type SmtpSecurity,
  type SmtpSettings,
  type SmtpSettingsInput,
  WEBHOOK_SECRET_MIN,
  type Webhook,
  type WebhookCreate,
} from '@cubby/shared';

export interface WebhookFormValues {
  name: string;
  url: string;
  secret: string;
  events: NotifyEvent[];
  enabled: boolean;
}
export type WebhookFormField = 'name' | 'url' | 'secret' | 'events';
export type WebhookFormErrorKey =
  | 'admin.notifications.errors.urlInvalid'
  | 'admin.notifications.errors.secretShort'
  | 'admin.notifications.errors.eventsRequired';
export type WebhookFormErrors = Partial<Record<WebhookFormField, WebhookFormErrorKey>>;
export const WEBHOOK_SERVER_FIELD: Record<string, WebhookFormField> = {
  name: 'name',
  url: 'url',
  secret: 'secret',
  events: 'events',
};

export function webhookValuesOf(hook?: Webhook): WebhookFormValues {
  return hook
    ? { name: hook.name, url: hook.url, secret: hook.secret, events: hook.events, enabled: hook.enabled }
    : { name: '', url: '', secret: '', events: [...NOTIFY_EVENTS], enabled: true };
}

/** A random signing secret (hex, 32 bytes) for the "Generate" button. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function validateWebhookForm(
  values: WebhookFormValues,
): { ok: true; input: WebhookCreate } | { ok: false; errors: WebhookFormErrors } {
  const errors: WebhookFormErrors = {};
  const url = values.url.trim();
  if (!/^https?:\/\/[^\s/?#]+/i.test(url)) errors.url = 'admin.notifications.errors.urlInvalid';
  if (values.secret !== NOTIFY_SECRET_MASK && values.secret.length < WEBHOOK_SECRET_MIN) {
    errors.secret = 'admin.notifications.errors.secretShort';
  }
  if (values.events.length === 0) errors.events = 'admin.notifications.errors.eventsRequired';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      name: values.name.trim(),
      url,
      secret: values.secret,
      events: NOTIFY_EVENTS.filter((e) => values.events.includes(e)),
      enabled: values.enabled,
    },
  };
}

export interface SmtpFormValues {
  host: string;
  port: string;
  security: SmtpSecurity;
  username: string;
  password: string;
  from: string;
}
export type SmtpFormField = 'host' | 'port' | 'username' | 'password' | 'from';
export type SmtpFormErrorKey =
  'admin.notifications.errors.portInvalid' | 'admin.notifications.errors.fromRequired';
export type SmtpFormErrors = Partial<Record<SmtpFormField, SmtpFormErrorKey>>;
export const SMTP_SERVER_FIELD: Record<string, SmtpFormField> = {
  host: 'host',
  port: 'port',
  username: 'username',
  password: 'password',
  from: 'from',
};

export function smtpValuesOf(settings: SmtpSettings): SmtpFormValues {
  return {
    host: settings.host,
    port: String(settings.port),
    security: settings.security,
    username: settings.username,
    password: settings.password,
    from: settings.from,
  };
}

export function validateSmtpForm(
  values: SmtpFormValues,
): { ok: true; input: SmtpSettingsInput } | { ok: false; errors: SmtpFormErrors } {
  const errors: SmtpFormErrors = {};
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    errors.port = 'admin.notifications.errors.portInvalid';
  const host = values.host.trim();
  if (host && !values.from.trim()) errors.from = 'admin.notifications.errors.fromRequired';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      host,
      port,
      security: values.security,
      username: values.username.trim(),
      password: values.password,
      from: values.from.trim(),
    },
  };
}
