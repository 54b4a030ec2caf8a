/**
 * Form logic shared by the create and edit dialogs: expiry choices, and validation with the same
 * schemas the server uses (`apiKeyCreateSchema`, `apiKeyUpdateSchema`, `customKeySchema` from
 * @cubby/shared), turned into translation keys.
 */
import {
  apiKeyCreateSchema,
  apiKeyUpdateSchema,
  customKeySchema,
  type ApiKeyCreateInput,
  type ApiKeyUpdateInput,
} from '@cubby/shared';

export const EXPIRY_CHOICES = ['1d', '7d', '30d', 'never', 'custom'] as const;
/** The edit dialog can also leave the expiry as it is. */
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number] | 'keep';
/** A hundred years: far enough for anyone, and still a valid date. */
export const MAX_CUSTOM_DAYS = 36_500;
const DAY_MS = 86_400_000;

export interface KeyFormValues {
  name: string;
  text: boolean;
  file: boolean;
  mount: boolean;
  basePath: string;
  expiry: ExpiryChoice;
  customDays: string;
  useCustomKey: boolean;
  customKey: string;
}

export const EMPTY_KEY_FORM: KeyFormValues = {
  name: '',
  text: false,
  file: false,
  mount: false,
  basePath: '/',
  expiry: '30d',
  customDays: '',
  useCustomKey: false,
  customKey: '',
};

export type KeyFormField = 'name' | 'basePath' | 'expiry' | 'customDays' | 'customKey';

/** Error translation keys, per field. */
export type KeyFormErrorKey =
  | 'keys.errors.nameRequired'
  | 'keys.errors.nameTooLong'
  | 'keys.errors.basePathInvalid'
  | 'keys.errors.expiryInvalid'
  | 'keys.errors.customDaysInvalid'
  | 'keys.errors.customKeyRequired'
  | 'keys.errors.customKeyTooShort'
  | 'keys.errors.customKeyTooLong'
  | 'keys.errors.customKeyInvalid';

export type KeyFormErrors = Partial<Record<KeyFormField, KeyFormErrorKey>>;

/** A positive whole number of days (at most {@link MAX_CUSTOM_DAYS}), or null. */
export function parseCustomDays(value: string): number | null {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const days = Number(trimmed);
  return days >= 1 && days <= MAX_CUSTOM_DAYS ? days : null;
}

const PRESET_DAYS: Partial<Record<ExpiryChoice, number>> = { '1d': 1, '7d': 7, '30d': 30 };

/** `expires_at` for a choice: an ISO date, 'never', or undefined for "keep" / invalid custom days. */
export function expiresAtFor(choice: ExpiryChoice, customDays: string, now = Date.now()): string | undefined {
  if (choice === 'keep') return undefined;
  if (choice === 'never') return 'never';
  const days = choice === 'custom' ? parseCustomDays(customDays) : PRESET_DAYS[choice];
  return days ? new Date(now + days * DAY_MS).toISOString() : undefined;
}

/** The server records "never" as a far-future date; year 9999 or later means never. */
export function isNeverExpiring(expiresAt: string | null | undefined): boolean {
  if (!expiresAt) return true;
  const date = new Date(expiresAt);
  return Number.isNaN(date.getTime()) ? false : date.getUTCFullYear() >= 9999;
}

function customKeyError(value: string): KeyFormErrorKey | undefined {
  if (value.trim() === '') return 'keys.errors.customKeyRequired';
  const result = customKeySchema.safeParse(value);
  if (result.success) return undefined;
  const message = result.error.issues[0]?.message;
  if (message === 'custom_key_too_short') return 'keys.errors.customKeyTooShort';
  if (message === 'custom_key_too_long') return 'keys.errors.customKeyTooLong';
  return 'keys.errors.customKeyInvalid';
}

function schemaErrors(issues: readonly { path: readonly PropertyKey[]; code: string }[]): KeyFormErrors {
  const errors: KeyFormErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (field === 'name')
      errors.name ??= issue.code === 'too_big' ? 'keys.errors.nameTooLong' : 'keys.errors.nameRequired';
    else if (field === 'basic_path') errors.basePath ??= 'keys.errors.basePathInvalid';
    else if (field === 'expires_at') errors.expiry ??= 'keys.errors.expiryInvalid';
  }
  return errors;
}

type Validated<T> = { ok: true; input: T } | { ok: false; errors: KeyFormErrors };

export function validateCreate(values: KeyFormValues, now = Date.now()): Validated<ApiKeyCreateInput> {
  const errors: KeyFormErrors = {};
  if (values.expiry === 'custom' && parseCustomDays(values.customDays) === null) {
    errors.customDays = 'keys.errors.customDaysInvalid';
  }
  if (values.useCustomKey) {
    const error = customKeyError(values.customKey);
    if (error) errors.customKey = error;
  }
  const parsed = apiKeyCreateSchema.safeParse({
    name: values.name,
    text_permission: values.text,
    file_permission: values.file,
    mount_permission: values.mount,
    basic_path: values.basePath.trim() === '' ? '/' : values.basePath,
    expires_at: expiresAtFor(values.expiry, values.customDays, now) ?? 'never',
    ...(values.useCustomKey && !errors.customKey ? { custom_key: values.customKey } : {}),
  });
  if (!parsed.success) Object.assign(errors, { ...schemaErrors(parsed.error.issues), ...errors });
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: parsed.data };
}

export function validateUpdate(values: KeyFormValues, now = Date.now()): Validated<ApiKeyUpdateInput> {
  const errors: KeyFormErrors = {};
  if (values.expiry === 'custom' && parseCustomDays(values.customDays) === null) {
    errors.customDays = 'keys.errors.customDaysInvalid';
  }
  const expiresAt = expiresAtFor(values.expiry, values.customDays, now);
  const parsed = apiKeyUpdateSchema.safeParse({
    name: values.name,
    text_permission: values.text,
    file_permission: values.file,
    mount_permission: values.mount,
    basic_path: values.basePath.trim() === '' ? '/' : values.basePath,
    ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
  });
  if (!parsed.success) Object.assign(errors, { ...schemaErrors(parsed.error.issues), ...errors });
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: parsed.data };
}

/** Maps the server's field names in a 400 `details` object to form fields. */
export const SERVER_FIELD: Record<string, KeyFormField> = {
  name: 'name',
  basic_path: 'basePath',
  expires_at: 'expiry',
  custom_key: 'customKey',
};
