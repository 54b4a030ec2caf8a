/**
 * The audit log (GET /api/admin/audit, docs/security.md "Audit log"): what an entry holds, the
 * actions recorded today, and the filters the list and its CSV export take.
 */
import { z } from 'zod';

/** Every action the server records; the web app labels each in both languages. */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.logout',
  'auth.change_password',
  'auth.session_end',
  'auth.sessions_end_others',
  'two_factor.enable',
  'two_factor.disable',
  'two_factor.recovery_codes',
  'passkey.create',
  'passkey.update',
  'passkey.delete',
  'app_password.create',
  'app_password.revoke',
  'user.create',
  'user.update',
  'user.delete',
  'invite.create',
  'invite.revoke',
  'invite.accept',
  'apikey.create',
  'apikey.update',
  'apikey.delete',
  'settings.update',
  'sso.create',
  'sso.update',
  'sso.delete',
  'ldap.update',
  'storage.create',
  'storage.update',
  'storage.delete',
  'storage.set_default',
  'mount.create',
  'mount.update',
  'mount.delete',
  'paste.create',
  'paste.update',
  'paste.delete',
  'paste.bulk_delete',
  'paste.clear_expired',
  'paste.revoke',
  'share.create',
  'share.update',
  'share.delete',
  'share.bulk_delete',
  'share.revoke',
  'fs.bulk_delete',
  'folder_share.update',
  'folder_share.revoke',
  'bundle.create',
  'bundle.update',
  'bundle.revoke',
  'fs_meta.create',
  'fs_meta.update',
  'fs_meta.delete',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'settings.smtp_update',
  'upload_request.create',
  'upload_request.update',
  'upload_request.revoke',
  'upload_request.upload',
  'scheduled_job.create',
  'scheduled_job.update',
  'scheduled_job.delete',
  'scheduled_job.run',
  'scheduled_job.cancel',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;

/** Days an entry is kept when no admin chose (0 keeps entries for ever). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;
export const MAX_AUDIT_RETENTION_DAYS = 36_500;
export const AUDIT_PAGE_MAX = 200;

export interface AuditEntry {
  id: string;
  /** ISO time. */
  at: string;
  /** 'admin', 'member', 'apikey' or 'guest' (nobody signed in). */
  actor_kind: string;
  actor_id: string | null;
  /** The account or key name; for a failed sign-in, the name that was tried. */
  actor_name: string | null;
  ip: string;
  action: string;
  target: string | null;
  outcome: (typeof AUDIT_OUTCOMES)[number];
  /** The HTTP status answered. */
  status: number;
  /** Small JSON object, or null. */
  details: string | null;
}

export interface AuditPage {
  items: AuditEntry[];
  total: number;
  page: number;
  limit: number;
}

const isoTime = z
  .string()
  .max(40)
  .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'audit_time_invalid' })
  .optional();

/** The filters of the list and of the export (all optional). */
export const auditFilterSchema = z.object({
  action: z.string().max(100).optional(),
  /** An actor's name (any case) or id. */
  actor: z.string().max(200).optional(),
  outcome: z.enum(AUDIT_OUTCOMES, { error: 'audit_outcome_invalid' }).optional(),
  /** Entries at or after this time. */
  from: isoTime,
  /** Entries at or before this time. */
  to: isoTime,
});

export const auditListSchema = auditFilterSchema.extend({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
});
