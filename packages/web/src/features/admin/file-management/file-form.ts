/**
 * Rules of the file share edit dialog: remark, link suffix, expiry, max views, password (set or
 * remove) and access mode. The share settings use the text-share rules (same fields, same
 * messages: `paste-form.ts`); the body holds only what changed, because the server resets the
 * view count when `max_views` is sent.
 */
import { type FileItem, type ShareState, slugSchema } from '@cubby/shared';
import {
  EMPTY_SETTINGS,
  MESSAGE_ERRORS,
  commonErrors,
  expiresAtFor,
  parseMaxViews,
  type PasteErrors,
  type PasteSettingsValues,
} from '../../pastes/index.ts';
import type { FileShareUpdate } from './api/types.ts';

export const REMARK_MAX = 500;
export const PASSWORD_MAX = 200;

/** The edit form's starting values for a share: expiry kept, max views blank when unlimited. */
export function settingsOf(file: FileItem): PasteSettingsValues {
  return {
    ...EMPTY_SETTINGS,
    remark: file.remark ?? '',
    slug: file.slug,
    expiry: 'keep',
    maxViews: file.max_views > 0 ? String(file.max_views) : '',
  };
}

type Validated = { ok: true; input: FileShareUpdate } | { ok: false; errors: PasteErrors };

/** Checks the form against the share as it was and builds the PUT body of the changes. */
export function validateFileUpdate(
  values: PasteSettingsValues,
  useProxy: boolean,
  file: FileItem,
  now = Date.now(),
): Validated {
  const errors = commonErrors(undefined, values, now);
  const remark = values.remark.trim();
  if (remark.length > REMARK_MAX) errors.remark = 'pastes.errors.remarkTooLong';
  const slug = values.slug.trim();
  // An emptied suffix asks the server for a new random one.
  if (slug !== file.slug && slug !== '') {
    const parsed = slugSchema.safeParse(slug);
    if (!parsed.success)
      errors.slug = MESSAGE_ERRORS[parsed.error.issues[0]?.message ?? ''] ?? 'pastes.errors.slugInvalid';
  }
  if (values.password.length > PASSWORD_MAX) errors.password = 'pastes.errors.passwordTooLong';
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const input: FileShareUpdate = {};
  if (remark !== (file.remark ?? '')) input.remark = remark;
  if (slug !== file.slug) input.slug = slug;
  const expiresAt = expiresAtFor(values.expiry, values.customExpiry, now);
  if (expiresAt !== undefined) input.expires_at = expiresAt;
  const maxViews = parseMaxViews(values.maxViews) ?? 0;
  if (maxViews !== file.max_views) input.max_views = maxViews;
  if (values.password) input.password = values.password;
  else if (values.clearPassword && file.has_password) input.password = null;
  if (useProxy !== (file.use_proxy === 1)) input.use_proxy = useProxy ? 1 : 0;
  return { ok: true, input };
}

/**
 * Whether a share still opens at `now`: revoked (as the server said), past its expiry, or out of
 * views, it does not.
 */
export function fileStatus(
  file: Pick<FileItem, 'expires_at' | 'max_views' | 'views'> & { status?: FileItem['status'] },
  now: number,
): ShareState {
  if (file.status === 'revoked') return 'revoked';
  if (file.expires_at && Date.parse(file.expires_at) <= now) return 'expired';
  if (file.max_views > 0 && file.views >= file.max_views) return 'used_up';
  return 'active';
}
