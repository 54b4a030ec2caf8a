/**
 * The share settings of an upload (docs/product.md §5): link suffix, sub-folder, remark, password, expiry
 * (hours; 0 = never) and max views, validated with the same rules the server applies (slug schema
 * from @cubby/shared, max views as for text shares) and turned into the fields presign/commit and
 * multipart init take. A custom suffix names one share, so it needs exactly one file.
 */
import { normalizePath, slugSchema } from '@cubby/shared';
import { parseMaxViews } from '../pastes/index.ts';

export const EXPIRY_CHOICES = ['1h', '1d', '7d', '30d', 'never', 'custom'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

const PRESET_HOURS: Record<Exclude<ExpiryChoice, 'custom'>, number> = {
  '1h': 1,
  '1d': 24,
  '7d': 7 * 24,
  '30d': 30 * 24,
  never: 0,
};

/** Longest custom expiry: ten years. */
export const MAX_EXPIRY_HOURS = 10 * 365 * 24;
export const REMARK_MAX = 500;
export const PASSWORD_MAX = 200;
export const PATH_MAX = 255;

export interface UploadSettingsValues {
  slug: string;
  path: string;
  remark: string;
  password: string;
  expiry: ExpiryChoice;
  /** Digits: hours, when `expiry` is custom. */
  customHours: string;
  /** Digits; empty or 0 means unlimited. */
  maxViews: string;
}

export const EMPTY_UPLOAD_SETTINGS: UploadSettingsValues = {
  slug: '',
  path: '',
  remark: '',
  password: '',
  expiry: 'never',
  customHours: '',
  maxViews: '',
};

export type UploadField = 'slug' | 'path' | 'remark' | 'password' | 'customHours' | 'maxViews';

export type UploadErrorKey =
  | 'pastes.errors.slugInvalid'
  | 'pastes.errors.slugTooLong'
  | 'pastes.errors.slugReserved'
  | 'pastes.errors.remarkTooLong'
  | 'pastes.errors.passwordTooLong'
  | 'pastes.errors.maxViewsInvalid'
  | 'upload.errors.slugOneFile'
  | 'upload.errors.pathInvalid'
  | 'upload.errors.customHoursInvalid';

export type UploadErrors = Partial<Record<UploadField, UploadErrorKey>>;

/** What the server takes for a share, in its field names. */
export interface ShareInput {
  slug?: string;
  path?: string;
  remark?: string;
  password?: string;
  /** Hours; 0 = never. */
  expires_in: number;
  /** 0 = unlimited. */
  max_views: number;
}

const SLUG_ERRORS: Record<string, UploadErrorKey> = {
  slug_too_long: 'pastes.errors.slugTooLong',
  slug_reserved: 'pastes.errors.slugReserved',
};

/** Hours of an expiry choice, or null when a custom value is not a whole number in range. */
export function expiryHours(choice: ExpiryChoice, customHours: string): number | null {
  if (choice !== 'custom') return PRESET_HOURS[choice];
  const trimmed = customHours.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return null;
  const hours = Number(trimmed);
  return hours >= 1 && hours <= MAX_EXPIRY_HOURS ? hours : null;
}

/**
 * A sub-folder as the server takes it: normalised, without leading or trailing slash ("" for the
 * root); null when the path climbs out, holds control characters or is too long.
 */
export function normalizeSubfolder(path: string): string | null {
  const trimmed = path.trim();
  if (trimmed === '') return '';
  const normalized = normalizePath(trimmed);
  if (normalized === null || normalized.length > PATH_MAX + 1) return null;
  return normalized.slice(1);
}

export type ValidatedSettings = { ok: true; input: ShareInput } | { ok: false; errors: UploadErrors };

/** Checks the settings for an upload of `fileCount` files (URL uploads count as one). */
export function validateUploadSettings(values: UploadSettingsValues, fileCount: number): ValidatedSettings {
  const errors: UploadErrors = {};
  const slug = values.slug.trim();
  if (slug !== '') {
    const parsed = slugSchema.safeParse(slug);
    if (!parsed.success) {
      errors.slug = SLUG_ERRORS[parsed.error.issues[0]?.message ?? ''] ?? 'pastes.errors.slugInvalid';
    } else if (fileCount > 1) {
      errors.slug = 'upload.errors.slugOneFile';
    }
  }
  const path = normalizeSubfolder(values.path);
  if (path === null) errors.path = 'upload.errors.pathInvalid';
  const remark = values.remark.trim();
  if (remark.length > REMARK_MAX) errors.remark = 'pastes.errors.remarkTooLong';
  if (values.password.length > PASSWORD_MAX) errors.password = 'pastes.errors.passwordTooLong';
  const hours = expiryHours(values.expiry, values.customHours);
  if (hours === null) errors.customHours = 'upload.errors.customHoursInvalid';
  const maxViews = parseMaxViews(values.maxViews);
  if (maxViews === null) errors.maxViews = 'pastes.errors.maxViewsInvalid';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      ...(slug ? { slug } : {}),
      ...(path ? { path } : {}),
      ...(remark ? { remark } : {}),
      ...(values.password ? { password: values.password } : {}),
      expires_in: hours ?? 0,
      max_views: maxViews ?? 0,
    },
  };
}

/** Whether a file may be uploaded at all: within the server's limit (null = limit unknown). */
export function isWithinLimit(size: number, maxBytes: number | null): boolean {
  return maxBytes === null || size <= maxBytes;
}
