/**
 * The new app password form (docs/accounts.md "App passwords for WebDAV"), checked with the
 * server's own schema (`appPasswordCreateSchema` from @cubby/shared), errors as translation keys.
 */
import { appPasswordCreateSchema } from '@cubby/shared';
import type { AppPasswordInput } from './api/account-api.ts';

export interface AppPasswordFormValues {
  name: string;
  access: 'read' | 'write';
  path: string;
}

export const EMPTY_APP_PASSWORD_FORM: AppPasswordFormValues = { name: '', access: 'write', path: '' };

export type AppPasswordFormErrors = Partial<
  Record<
    'name' | 'path',
    'accounts.errors.nameRequired' | 'accounts.errors.nameTooLong' | 'accounts.errors.pathInvalid'
  >
>;

export function validateAppPassword(
  values: AppPasswordFormValues,
): { ok: true; input: AppPasswordInput } | { ok: false; errors: AppPasswordFormErrors } {
  const path = values.path.trim();
  const parsed = appPasswordCreateSchema.safeParse({
    name: values.name,
    access: values.access,
    ...(path ? { path } : {}),
  });
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: AppPasswordFormErrors = {};
  for (const issue of parsed.error.issues) {
    if (issue.path[0] === 'name')
      errors.name ??=
        issue.code === 'too_big' ? 'accounts.errors.nameTooLong' : 'accounts.errors.nameRequired';
    else if (issue.path[0] === 'path') errors.path ??= 'accounts.errors.pathInvalid';
  }
  return { ok: false, errors };
}
