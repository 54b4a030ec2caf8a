/**
 * Notifications (docs/api.md "Notifications"): the events outgoing webhooks can follow, the input
 * rules of a webhook and of the SMTP settings (the server validates them, the admin forms share
 * them), and what the admin routes answer — secrets masked, never sent.
 */
import { z } from 'zod';
import { OIDC_SECRET_MASK } from './oidc.ts';

export const NOTIFY_EVENTS = ['share.created', 'share.viewed', 'share.expired', 'share.uploaded'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];
/** What `POST /api/admin/webhooks/:id/test` sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** Stands for a stored secret in answers; sent back, it keeps the stored one. */
export const NOTIFY_SECRET_MASK = OIDC_SECRET_MASK;
export const WEBHOOK_SECRET_MIN = 16;

const webhookUrl = z
  .string({ error: 'webhook_url_invalid' })
  .trim()
  .max(2048, { message: 'webhook_url_invalid' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    { message: 'webhook_url_invalid' },
  );

const webhookFields = {
  name: z.string({ error: 'webhook_name_invalid' }).trim().max(100, { message: 'webhook_name_invalid' }),
  url: webhookUrl,
  /** The HMAC key; NOTIFY_SECRET_MASK keeps the stored one. */
  secret: z
    .string({ error: 'webhook_secret_invalid' })
    .min(WEBHOOK_SECRET_MIN, { message: 'webhook_secret_invalid' })
    .max(200, { message: 'webhook_secret_invalid' }),
  events: z
    .array(z.enum(NOTIFY_EVENTS, { error: 'webhook_events_invalid' }), { error: 'webhook_events_invalid' })
    .min(1, { message: 'webhook_events_invalid' })
    .max(NOTIFY_EVENTS.length, { message: 'webhook_events_invalid' }),
  enabled: z.boolean({ error: 'webhook_enabled_invalid' }),
};

export const webhookCreateSchema = z.object({
  ...webhookFields,
  name: webhookFields.name.default(''),
  enabled: webhookFields.enabled.default(true),
});
export const webhookUpdateSchema = z.object({
  name: webhookFields.name.optional(),
  url: webhookUrl.optional(),
  secret: z.union([z.literal(NOTIFY_SECRET_MASK), webhookFields.secret]).optional(),
  events: webhookFields.events.optional(),
  enabled: webhookFields.enabled.optional(),
});
export type WebhookCreate = z.input<typeof webhookCreateSchema>;
export type WebhookUpdate = z.input<typeof webhookUpdateSchema>;

/** A webhook as the admin routes answer it. */
export interface Webhook {
  id: string;
  name: string;
  url: string;
  /** Always NOTIFY_SECRET_MASK: the secret is never sent. */
  secret: string;
  events: NotifyEvent[];
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  id: string;
  webhook_id: string;
  event: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  /** The receiver's HTTP status on the last attempt. */
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

export const smtpSettingsSchema = z.object({
  /** Empty turns email off. */
  host: z.string({ error: 'smtp_host_invalid' }).trim().max(253, { message: 'smtp_host_invalid' }),
  port: z
    .number({ error: 'smtp_port_invalid' })
    .int({ message: 'smtp_port_invalid' })
    .min(1, { message: 'smtp_port_invalid' })
    .max(65535, { message: 'smtp_port_invalid' }),
  security: z.enum(SMTP_SECURITY, { error: 'smtp_security_invalid' }),
  username: z.string({ error: 'smtp_username_invalid' }).max(200, { message: 'smtp_username_invalid' }),
  /** NOTIFY_SECRET_MASK (or no field) keeps the stored password; '' removes it. */
  password: z
    .string({ error: 'smtp_password_invalid' })
    .max(200, { message: 'smtp_password_invalid' })
    .optional(),
  from: z.string({ error: 'smtp_from_invalid' }).trim().max(320, { message: 'smtp_from_invalid' }),
});
export type SmtpSettingsInput = z.input<typeof smtpSettingsSchema>;

/** The SMTP settings as the admin route answers them. */
export interface SmtpSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string;
  /** NOTIFY_SECRET_MASK when a password is stored, '' when none. */
  password: string;
  from: string;
  /** Whether email is on (a host and a sender are set). */
  enabled: boolean;
}

export const smtpTestSchema = z.object({
  to: z.string({ error: 'smtp_to_invalid' }).trim().email({ message: 'smtp_to_invalid' }).max(320).optional(),
});
