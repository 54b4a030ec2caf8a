/**
 * Form rules of a text share, shared by the Home editor (create) and the edit dialog (paste view
 * and admin): expiry choices, max views, and validation with the schemas the server uses
 * (`pasteCreateSchema`, `pasteUpdateSchema` from @cubby/shared) plus the 5 MiB size limit, turned
 * into translation keys. Server `details` map back onto the same fields.
 */
import {
  PASTE_MAX_BYTES,
  pasteCreateSchema,
  pasteUpdateSchema,
  type PasteCreateInput,
  type PasteFile,
  type PasteFormat,
  type PasteUpdateInput,
} from '@cubby/shared';

export const EXPIRY_CHOICES = ['1h', '1d', '7d', '30d', 'never', 'custom'] as const;
/** The edit form can also keep the current expiry. */
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number] | 'keep';

const HOUR_MS = 3_600_000;
const PRESET_MS: Partial<Record<ExpiryChoice, number>> = {
  '1h': HOUR_MS,
  '1d': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
  '30d': 30 * 24 * HOUR_MS,
};

export interface PasteSettingsValues {
  remark: string;
  slug: string;
  password: string;
  /** Edit only: remove the current password. */
  clearPassword: boolean;
  expiry: ExpiryChoice;
  /** A `datetime-local` value (local time), used when `expiry` is custom. */
  customExpiry: string;
  /** Digits; empty or 0 means unlimited. */
  maxViews: string;
}

export const EMPTY_SETTINGS: PasteSettingsValues = {
  remark: '',
  slug: '',
  password: '',
  clearPassword: false,
  expiry: 'never',
  customExpiry: '',
  maxViews: '',
};

export type PasteField = 'content' | 'remark' | 'slug' | 'password' | 'expiry' | 'customExpiry' | 'maxViews';

export type PasteErrorKey =
  | 'pastes.errors.contentRequired'
  | 'pastes.errors.contentTooLarge'
  | 'pastes.errors.policyTooLarge'
  | 'pastes.errors.remarkTooLong'
  | 'pastes.errors.slugInvalid'
  | 'pastes.errors.slugTooLong'
  | 'pastes.errors.slugReserved'
  | 'pastes.errors.passwordTooLong'
  | 'pastes.errors.customExpiryInvalid'
  | 'pastes.errors.customExpiryPast'
  | 'pastes.errors.maxViewsInvalid'
  | 'pastes.errors.fileNameInvalid'
  | 'pastes.errors.fileNamesRepeat'
  | 'pastes.errors.tooManyFiles';

export type PasteErrors = Partial<Record<PasteField, PasteErrorKey>>;

/** Maps the server's field names in a 400 `details` object to form fields. */
export const SERVER_FIELD: Record<string, PasteField> = {
  content: 'content',
  files: 'content',
  remark: 'remark',
  slug: 'slug',
  newSlug: 'slug',
  password: 'password',
  expiresAt: 'expiry',
  maxViews: 'maxViews',
};

/** A `datetime-local` value for a moment (local time, minutes). */
export function toDateTimeLocal(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * `expiresAt` for a choice: an ISO date, null for "never", or undefined for "keep" and for a
 * custom value that is not a valid date.
 */
export function expiresAtFor(
  choice: ExpiryChoice,
  custom: string,
  now = Date.now(),
): string | null | undefined {
  if (choice === 'keep') return undefined;
  if (choice === 'never') return null;
  if (choice === 'custom') {
    const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(custom) ? new Date(custom).getTime() : NaN;
    return Number.isNaN(time) ? undefined : new Date(time).toISOString();
  }
  return new Date(now + PRESET_MS[choice]!).toISOString();
}

/** Max views from the field: empty → 0 (unlimited), a whole number ≥ 0, otherwise null. */
export function parseMaxViews(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return 0;
  if (!/^\d{1,9}$/.test(trimmed)) return null;
  return Number(trimmed);
}

/** Size of a text in UTF-8 bytes, as the server counts it. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

export const MESSAGE_ERRORS: Record<string, PasteErrorKey> = {
  content_required: 'pastes.errors.contentRequired',
  remark_too_long: 'pastes.errors.remarkTooLong',
  slug_invalid: 'pastes.errors.slugInvalid',
  slug_too_long: 'pastes.errors.slugTooLong',
  slug_reserved: 'pastes.errors.slugReserved',
  max_views_invalid: 'pastes.errors.maxViewsInvalid',
  invalid_expiry: 'pastes.errors.customExpiryInvalid',
  paste_file_name_invalid: 'pastes.errors.fileNameInvalid',
  paste_file_names_repeat: 'pastes.errors.fileNamesRepeat',
  paste_files_too_many: 'pastes.errors.tooManyFiles',
};

const SCHEMA_FIELD: Record<string, PasteField> = {
  content: 'content',
  files: 'content',
  remark: 'remark',
  slug: 'slug',
  newSlug: 'slug',
  password: 'password',
  expiresAt: 'customExpiry',
  maxViews: 'maxViews',
};

function schemaErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): PasteErrors {
  const errors: PasteErrors = {};
  for (const issue of issues) {
    const field = SCHEMA_FIELD[String(issue.path[0])];
    if (!field) continue;
    errors[field] ??=
      MESSAGE_ERRORS[issue.message] ??
      (field === 'password' ? 'pastes.errors.passwordTooLong' : 'pastes.errors.slugInvalid');
  }
  return errors;
}

/**
 * Checks that need more than the schemas: size (5 MiB, or `maxBytes`, the share policy's largest
 * share, when smaller: docs/api.md, "Share policy"), max views digits, the custom date.
 */
export function commonErrors(
  content: string | undefined,
  values: PasteSettingsValues,
  now: number,
  maxBytes: number | null = null,
): PasteErrors {
  const errors: PasteErrors = {};
  const byPolicy = maxBytes !== null && maxBytes < PASTE_MAX_BYTES;
  const limit = byPolicy ? maxBytes : PASTE_MAX_BYTES;
  // A character takes at most 4 bytes: a text this short is not measured.
  if (content !== undefined && content.length > limit / 4 && utf8Bytes(content) > limit) {
    errors.content = byPolicy ? 'pastes.errors.policyTooLarge' : 'pastes.errors.contentTooLarge';
  }
  if (parseMaxViews(values.maxViews) === null) errors.maxViews = 'pastes.errors.maxViewsInvalid';
  if (values.expiry === 'custom') {
    const expiresAt = expiresAtFor('custom', values.customExpiry, now);
    if (expiresAt === undefined || expiresAt === null)
      errors.customExpiry = 'pastes.errors.customExpiryInvalid';
    else if (Date.parse(expiresAt) <= now) errors.customExpiry = 'pastes.errors.customExpiryPast';
  }
  return errors;
}

type Validated<T> = { ok: true; input: T } | { ok: false; errors: PasteErrors };

/** What the Home editor adds to a paste: a title, the public flag, and named files when several. */
export interface PasteExtras {
  title?: string;
  isPublic?: boolean;
  /** Two or more named files (docs/api.md, "Multi-file pastes"); `content` is then ignored. */
  files?: PasteFile[];
}

export function validateCreate(
  {
    content,
    format,
    values,
    extras = {},
    maxBytes = null,
  }: {
    content: string;
    format: PasteFormat;
    values: PasteSettingsValues;
    extras?: PasteExtras;
    /** The share policy's largest share (null: none). */
    maxBytes?: number | null;
  },
  now = Date.now(),
): Validated<PasteCreateInput> {
  const files = extras.files;
  // Every file counts towards the one size limit: their texts together are measured.
  const errors = commonErrors(files ? files.map((f) => f.content).join('') : content, values, now, maxBytes);
  const input: PasteCreateInput = {
    ...(files ? { files } : { content }),
    ...(extras.title?.trim() ? { title: extras.title.trim() } : {}),
    ...(extras.isPublic ? { is_public: true } : {}),
    format,
    remark: values.remark.trim() || undefined,
    slug: values.slug.trim() || undefined,
    password: values.password || undefined,
    expiresAt: errors.customExpiry ? null : (expiresAtFor(values.expiry, values.customExpiry, now) ?? null),
    maxViews: parseMaxViews(values.maxViews) ?? 0,
  };
  const parsed = pasteCreateSchema.safeParse(input);
  if (!parsed.success) Object.assign(errors, { ...schemaErrors(parsed.error.issues), ...errors });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input };
}

/** What the edit form started from, to send only what changed where that matters. */
export interface PasteOriginal {
  slug: string;
  hasPassword: boolean;
}

export function validateUpdate(
  {
    content,
    format,
    values,
    original,
    files,
  }: {
    content: string;
    format: PasteFormat;
    values: PasteSettingsValues;
    original: PasteOriginal;
    /** Every file of a multi-file paste, replacing those it has (then `content` is ignored). */
    files?: PasteFile[];
  },
  now = Date.now(),
): Validated<PasteUpdateInput> {
  // Every file counts towards the one size limit, as on create.
  const errors = commonErrors(files ? files.map((f) => f.content).join('') : content, values, now);
  const slug = values.slug.trim();
  const expiresAt = errors.customExpiry ? undefined : expiresAtFor(values.expiry, values.customExpiry, now);
  const input: PasteUpdateInput = {
    ...(files ? { files } : { content }),
    format,
    remark: values.remark.trim(),
    maxViews: parseMaxViews(values.maxViews) ?? 0,
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(values.password ? { password: values.password } : {}),
    ...(!values.password && values.clearPassword && original.hasPassword ? { clearPassword: true } : {}),
    // An emptied field asks the server for a new random suffix.
    ...(slug !== original.slug ? { newSlug: slug } : {}),
  };
  const parsed = pasteUpdateSchema.safeParse(input);
  if (!parsed.success) Object.assign(errors, { ...schemaErrors(parsed.error.issues), ...errors });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input };
}
