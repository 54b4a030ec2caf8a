/**
 * The person and invite forms of the People module (docs/accounts.md "People"): values as typed,
 * checked with the server's own schemas (`userCreateSchema`, `userUpdateSchema`,
 * `inviteCreateSchema` from @cubby/shared), errors as translation keys per field. The quota is a
 * size (number and unit, as the upload limit); empty means no quota.
 */
import {
  inviteCreateSchema,
  toBytes,
  toUnit,
  inviteAcceptSchema,
  userCreateSchema,
  userUpdateSchema,
  type SizeUnit,
  type UserRole,
  type UserView,
} from '@cubby/shared';

export interface PathRow {
  path: string;
  access: 'read' | 'write';
}

export interface PersonFormValues {
  username: string;
  password: string;
  role: UserRole;
  status: 'active' | 'disabled';
  email: string;
  homePath: string;
  quota: string;
  quotaUnit: SizeUnit;
  paths: PathRow[];
}

export const EMPTY_PERSON_FORM: PersonFormValues = {
  username: '',
  password: '',
  role: 'member',
  status: 'active',
  email: '',
  homePath: '',
  quota: '',
  quotaUnit: 'GB',
  paths: [],
};

/** The form filled with a person as they are (the password left empty: unchanged). */
export function personFormOf(user: UserView): PersonFormValues {
  const quota = user.quota_bytes === null ? null : toUnit(user.quota_bytes);
  return {
    ...EMPTY_PERSON_FORM,
    username: user.username,
    role: user.role,
    status: user.status,
    email: user.email ?? '',
    homePath: user.home_path ?? '',
    quota: quota ? String(quota.value) : '',
    quotaUnit: quota?.unit ?? 'GB',
    paths: user.paths.map((grant) => ({ ...grant })),
  };
}

export type PersonErrorKey =
  | 'accounts.errors.usernameRequired'
  | 'accounts.errors.usernameInvalid'
  | 'accounts.errors.usernameTooLong'
  | 'accounts.errors.passwordTooShort'
  | 'accounts.errors.passwordTooLong'
  | 'accounts.errors.emailInvalid'
  | 'accounts.errors.pathInvalid'
  | 'accounts.errors.quotaInvalid'
  | 'accounts.errors.daysInvalid'
  | 'accounts.errors.passwordsDiffer';

/** Field names as the server names them in `details` (`paths.0.path` for the first extra path). */
export type PersonErrors = Partial<Record<string, PersonErrorKey>>;

const FIELD_ERRORS: Record<string, PersonErrorKey> = {
  username_required: 'accounts.errors.usernameRequired',
  username_invalid: 'accounts.errors.usernameInvalid',
  username_too_long: 'accounts.errors.usernameTooLong',
  password_required: 'accounts.errors.passwordTooShort',
  password_too_short: 'accounts.errors.passwordTooShort',
  account_password_too_long: 'accounts.errors.passwordTooLong',
  email_invalid: 'accounts.errors.emailInvalid',
};

function errorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): PersonErrors {
  const errors: PersonErrors = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    const first = String(issue.path[0]);
    const key =
      FIELD_ERRORS[issue.message] ??
      (first === 'home_path' || first === 'paths'
        ? 'accounts.errors.pathInvalid'
        : first === 'expires_in_days'
          ? 'accounts.errors.daysInvalid'
          : first === 'email'
            ? 'accounts.errors.emailInvalid'
            : 'accounts.errors.quotaInvalid');
    errors[field] ??= key;
  }
  return errors;
}

/** The quota in bytes: null for none, undefined when it is not a size. */
function quotaBytes(values: Pick<PersonFormValues, 'quota' | 'quotaUnit'>): number | null | undefined {
  const text = values.quota.trim();
  if (text === '') return null;
  const number = Number(text);
  return Number.isFinite(number) && number >= 0 ? toBytes(number, values.quotaUnit) : undefined;
}

type Validated<T> = { ok: true; input: T } | { ok: false; errors: PersonErrors };

function validated<T>(
  result:
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
  quota: number | null | undefined,
): Validated<T> {
  const errors = result.success ? {} : errorsOf(result.error.issues);
  if (quota === undefined) errors.quota_bytes = 'accounts.errors.quotaInvalid';
  if (!result.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: result.data };
}

const shared = (values: PersonFormValues) => ({
  email: values.email.trim() === '' ? null : values.email.trim(),
  home_path: values.homePath.trim() === '' ? null : values.homePath.trim(),
  paths: values.paths.map((row) => ({ path: row.path.trim(), access: row.access })),
});

export function validateCreatePerson(values: PersonFormValues) {
  const quota = quotaBytes(values);
  return validated(
    userCreateSchema.safeParse({
      username: values.username,
      password: values.password,
      role: values.role,
      quota_bytes: quota ?? null,
      ...shared(values),
    }),
    quota,
  );
}

/** An edit sends every field but the password, which only goes when a new one is typed. */
export function validateUpdatePerson(values: PersonFormValues) {
  const quota = quotaBytes(values);
  return validated(
    userUpdateSchema.safeParse({
      role: values.role,
      status: values.status,
      quota_bytes: quota ?? null,
      ...shared(values),
      ...(values.password ? { password: values.password } : {}),
    }),
    quota,
  );
}

export interface InviteFormValues {
  role: UserRole;
  email: string;
  homePath: string;
  quota: string;
  quotaUnit: SizeUnit;
  days: string;
}

export const EMPTY_INVITE_FORM: InviteFormValues = {
  role: 'member',
  email: '',
  homePath: '',
  quota: '',
  quotaUnit: 'GB',
  days: '7',
};

export function validateInvite(values: InviteFormValues) {
  const quota = quotaBytes(values);
  const days = values.days.trim();
  return validated(
    inviteCreateSchema.safeParse({
      role: values.role,
      email: values.email.trim() === '' ? null : values.email.trim(),
      home_path: values.homePath.trim() === '' ? null : values.homePath.trim(),
      quota_bytes: quota ?? null,
      expires_in_days: /^\d+$/.test(days) ? Number(days) : Number.NaN,
    }),
    quota,
  );
}

/** The invite page's form: a username and a password typed twice. */
export function validateAcceptInvite(values: { username: string; password: string; confirm: string }) {
  const result = validated(
    inviteAcceptSchema.safeParse({ username: values.username, password: values.password }),
    null,
  );
  if (values.password === values.confirm) return result;
  const errors: PersonErrors = result.ok ? {} : result.errors;
  return { ok: false as const, errors: { ...errors, confirm: 'accounts.errors.passwordsDiffer' as const } };
}
