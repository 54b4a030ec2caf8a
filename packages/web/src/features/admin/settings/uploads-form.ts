/**
 * Rules of the "Uploads" settings (docs/product.md §3 "System settings", §5 "largest upload": greater
 * than 0): the largest upload as a number and a unit (KB, MB, GB; the server's schema sets the range,
 * 1 KB to 1 TB), the URL-upload allowlist (hosts, host:port or CIDR ranges, one per line; checked
 * entry by entry with the server's parser), the WebDAV upload mode, Office preview (on or off), and
 * whether uploads into mounts are published as file shares (through the explorer and the API, and
 * over WebDAV; each on or off).
 */
import {
  WEBDAV_UPLOAD_MODES,
  parseUrlAllowlist,
  splitUrlAllowlist,
  systemSettingsUpdateSchema,
  toBytes,
  toUnit,
  type SizeUnit,
} from '@cubby/shared';
import type { SystemSettings, SystemSettingsUpdate, WebdavUploadMode } from './api/system-settings.ts';

export interface UploadsFormValues {
  maxSize: string;
  maxSizeUnit: SizeUnit;
  /** Entries separated by newlines (or commas). */
  urlAllowlist: string;
  webdavUploadMode: WebdavUploadMode;
  officePreview: boolean;
  publicPastes: boolean;
  fsUploadShare: boolean;
  webdavUploadShare: boolean;
}

export type UploadsField =
  | 'maxSize'
  | 'urlAllowlist'
  | 'webdavUploadMode'
  | 'officePreview'
  | 'publicPastes'
  | 'fsUploadShare'
  | 'webdavUploadShare';

export type UploadsErrorKey =
  | 'admin.settings.uploads.errors.maxSizeInvalid'
  | 'admin.settings.uploads.errors.maxSizeRange'
  | 'admin.settings.uploads.errors.allowlistEntry'
  | 'admin.settings.uploads.errors.allowlistTooLong';

/** A problem and, for the allowlist, the entry it is about. */
export type UploadsErrors = Partial<Record<UploadsField, { key: UploadsErrorKey; entry?: string }>>;

/** Maps the server's field names in a 400 `details` object to form fields. */
export const SERVER_FIELD: Record<string, UploadsField> = {
  max_upload_size: 'maxSize',
  max_upload_size_unit: 'maxSize',
  url_allowlist: 'urlAllowlist',
  webdav_upload_mode: 'webdavUploadMode',
  office_preview_enabled: 'officePreview',
  public_pastes_enabled: 'publicPastes',
  fs_upload_share: 'fsUploadShare',
  webdav_upload_share: 'webdavUploadShare',
};

export function valuesOf(settings: SystemSettings): UploadsFormValues {
  const size = toUnit(settings.maxUploadBytes);
  return {
    maxSize: String(size.value),
    maxSizeUnit: size.unit,
    urlAllowlist: splitUrlAllowlist(settings.urlAllowlist).join('\n'),
    webdavUploadMode: settings.webdavUploadMode,
    officePreview: settings.officePreviewEnabled,
    publicPastes: settings.publicPastesEnabled,
    fsUploadShare: settings.fsUploadShare,
    webdavUploadShare: settings.webdavUploadShare,
  };
}

type Validated = { ok: true; input: SystemSettingsUpdate } | { ok: false; errors: UploadsErrors };

/**
 * Checks the form and builds the PUT body of what differs from `stored` (so two admins editing
 * different settings do not undo each other); an empty body means nothing changed.
 */
export function validateUploads(values: UploadsFormValues, stored: SystemSettings): Validated {
  const errors: UploadsErrors = {};
  const trimmed = values.maxSize.trim();
  const size = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!(size > 0)) errors.maxSize = { key: 'admin.settings.uploads.errors.maxSizeInvalid' };

  const { invalid } = parseUrlAllowlist(values.urlAllowlist);
  if (invalid[0] !== undefined) {
    errors.urlAllowlist = { key: 'admin.settings.uploads.errors.allowlistEntry', entry: invalid[0] };
  }
  const allowlist = splitUrlAllowlist(values.urlAllowlist).join('\n');
  const mode = (WEBDAV_UPLOAD_MODES as readonly string[]).includes(values.webdavUploadMode)
    ? values.webdavUploadMode
    : 'auto';

  const input: SystemSettingsUpdate = {};
  if (!(size > 0) || toBytes(size, values.maxSizeUnit) !== stored.maxUploadBytes) {
    input.max_upload_size = size;
    input.max_upload_size_unit = values.maxSizeUnit;
  }
  if (allowlist !== splitUrlAllowlist(stored.urlAllowlist).join('\n')) input.url_allowlist = allowlist;
  if (mode !== stored.webdavUploadMode) input.webdav_upload_mode = mode;
  if (values.officePreview !== stored.officePreviewEnabled)
    input.office_preview_enabled = values.officePreview;
  if (values.publicPastes !== stored.publicPastesEnabled) input.public_pastes_enabled = values.publicPastes;
  if (values.fsUploadShare !== stored.fsUploadShare) input.fs_upload_share = values.fsUploadShare;
  if (values.webdavUploadShare !== stored.webdavUploadShare)
    input.webdav_upload_share = values.webdavUploadShare;

  const parsed = systemSettingsUpdateSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'max_upload_size' || field === 'max_upload_size_unit')
        errors.maxSize ??= { key: 'admin.settings.uploads.errors.maxSizeRange' };
      else if (field === 'url_allowlist')
        errors.urlAllowlist ??= { key: 'admin.settings.uploads.errors.allowlistTooLong' };
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input };
}
