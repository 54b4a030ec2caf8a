/**
 * Byte sizes as people enter them (a number and KB / MB / GB, binary units as storage tools use)
 * and as the app shows them.
 */
import { z } from 'zod';
import { TWO_FACTOR_POLICIES } from './accounts.ts';
import { MAX_AUDIT_RETENTION_DAYS } from './audit.ts';
import { URL_ALLOWLIST_MAX_LENGTH } from './url-allowlist.ts';
import { normalizeFsPath } from './paths.ts';
import { sharePolicyUpdateFields } from './share-policy.ts';

export const SIZE_UNITS = ['KB', 'MB', 'GB'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];
const FACTOR: Record<SizeUnit, number> = { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

/** The upload limit when none is set: 100 MB, as CloudPaste. */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 ** 2;
/** The largest upload limit that can be set: 1 TB. */
export const MAX_UPLOAD_LIMIT_BYTES = 1024 ** 4;

export function toBytes(value: number, unit: SizeUnit): number {
  return Math.round(value * FACTOR[unit]);
}

/** The largest unit in which `bytes` is a whole number ≥ 1 (or MB with decimals), for forms. */
export function toUnit(bytes: number): { value: number; unit: SizeUnit } {
  for (const unit of ['GB', 'MB', 'KB'] as const) {
    if (bytes >= FACTOR[unit] && bytes % FACTOR[unit] === 0) return { value: bytes / FACTOR[unit], unit };
  }
  return { value: Math.round((bytes / FACTOR.KB) * 100) / 100, unit: 'KB' };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${units[i]}`;
}

export const WEBDAV_UPLOAD_MODES = ['auto', 'proxy', 'multipart', 'direct'] as const;

/** Most folders guests may browse. */
export const MAX_GUEST_PATHS = 50;

/** The guest folders of the setting's text (one per line, canonical), or null when one is no path. */
export function splitGuestPaths(text: string): string[] | null {
  const lines = text
    .split(/[\r\n]+/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const paths = lines.map((line) => normalizeFsPath(line));
  if (paths.length > MAX_GUEST_PATHS || paths.some((p) => p === null)) return null;
  return [...new Set(paths as string[])];
}

export const systemSettingsUpdateSchema = z
  .object({
    /** In `max_upload_size_unit` (MB when absent, as CloudPaste clients send). */
    max_upload_size: z
      .number({ error: 'max_upload_size_invalid' })
      .positive({ message: 'max_upload_size_invalid' })
      .optional(),
    max_upload_size_unit: z.enum(SIZE_UNITS, { error: 'size_unit_invalid' }).optional(),
    webdav_upload_mode: z.enum(WEBDAV_UPLOAD_MODES, { error: 'webdav_upload_mode_invalid' }).optional(),
    /** URL-upload allowlist: entries separated by commas or newlines (see url-allowlist.ts). */
    url_allowlist: z
      .string({ error: 'url_allowlist_invalid' })
      .max(URL_ALLOWLIST_MAX_LENGTH, { message: 'url_allowlist_too_long' })
      .optional(),
    /** Whether file pages offer Office preview (it sends the file to Microsoft's online viewer). */
    office_preview_enabled: z.boolean({ error: 'office_preview_enabled_invalid' }).optional(),
    /** Whether a file uploaded into a mount through the explorer or the fs API is also a file share. */
    fs_upload_share: z.boolean({ error: 'fs_upload_share_invalid' }).optional(),
    /** Whether a file uploaded into a mount over WebDAV is also a file share. */
    webdav_upload_share: z.boolean({ error: 'webdav_upload_share_invalid' }).optional(),
    /** Whether public pastes are listed on the public page (docs/api.md, "Public pastes"). */
    public_pastes_enabled: z.boolean({ error: 'public_pastes_enabled_invalid' }).optional(),
    /** Who must sign in with two factors: nobody, the admins, or everyone (docs/accounts.md). */
    require_two_factor: z.enum(TWO_FACTOR_POLICIES, { error: 'require_two_factor_invalid' }).optional(),
    /** Whether signed-out visitors may browse `guest_paths` (docs/accounts.md, "Guests"). */
    guest_enabled: z.boolean({ error: 'guest_enabled_invalid' }).optional(),
    /** The folders guests browse (mount paths or folders in them), one per line. */
    guest_paths: z
      .string({ error: 'guest_paths_invalid' })
      .max(URL_ALLOWLIST_MAX_LENGTH, { message: 'guest_paths_invalid' })
      .refine((text) => splitGuestPaths(text) !== null, { message: 'guest_paths_invalid' })
      .optional(),
    /** Whether guests may also change what is in those folders (read only unless set). */
    guest_write: z.boolean({ error: 'guest_write_invalid' }).optional(),
    /** Days the audit log keeps an entry; 0 keeps entries for ever (modules/audit/). */
    audit_retention_days: z
      .number({ error: 'audit_retention_days_invalid' })
      .int({ message: 'audit_retention_days_invalid' })
      .min(0, { message: 'audit_retention_days_invalid' })
      .max(MAX_AUDIT_RETENTION_DAYS, { message: 'audit_retention_days_invalid' })
      .optional(),
    /** The share policy (docs/api.md, "Share policy"); null removes a limit. */
    ...sharePolicyUpdateFields,
  })
  .refine(
    (s) =>
      s.max_upload_size === undefined ||
      (toBytes(s.max_upload_size, s.max_upload_size_unit ?? 'MB') >= 1024 &&
        toBytes(s.max_upload_size, s.max_upload_size_unit ?? 'MB') <= MAX_UPLOAD_LIMIT_BYTES),
    { message: 'max_upload_size_range', path: ['max_upload_size'] },
  );
