/**
 * The edit dialog's rules for a bundle or a folder link (docs/api.md "Bundles", "Folder shares"):
 * both take the same `PUT` fields — `title`, `password` (a new one, or `null` to remove it),
 * `expires_in` in hours (0: never) and `max_views` — so one form serves both. The body holds only
 * what changed, because the server starts counting views again when `max_views` is sent.
 */
import { BUNDLE_TITLE_MAX } from '@cubby/shared';
import { parseMaxViews } from '../../pastes/index.ts';

/** The expiry choices: keep the current one, a preset from now, or never. */
export const LINK_EXPIRY_CHOICES = ['keep', '1h', '1d', '7d', '30d', 'never'] as const;
export type LinkExpiry = (typeof LINK_EXPIRY_CHOICES)[number];
const HOURS: Record<Exclude<LinkExpiry, 'keep'>, number> = {
  '1h': 1,
  '1d': 24,
  '7d': 168,
  '30d': 720,
  never: 0,
};
/** The longest password the server takes. */
export const LINK_PASSWORD_MAX = 200;

export interface LinkSettingsValues {
  title: string;
  password: string;
  clearPassword: boolean;
  expiry: LinkExpiry;
  /** Digits; empty or 0 is unlimited. */
  maxViews: string;
}

/** What the form starts from and compares with. */
export interface LinkSettings {
  title: string | null;
  has_password: boolean;
  max_views: number;
}

export interface LinkUpdateBody {
  title?: string | null;
  password?: string | null;
  expires_in?: number;
  max_views?: number;
}

export type LinkFormErrors = Partial<
  Record<
    'title' | 'password' | 'maxViews',
    'pastes.errors.maxViewsInvalid' | 'pastes.errors.passwordTooLong' | 'admin.links.edit.titleTooLong'
  >
>;

export function linkSettingsOf(link: LinkSettings): LinkSettingsValues {
  return {
    title: link.title ?? '',
    password: '',
    clearPassword: false,
    expiry: 'keep',
    maxViews: link.max_views > 0 ? String(link.max_views) : '',
  };
}

/** Checks the form and builds the body of what changed. */
export function linkUpdateBody(
  values: LinkSettingsValues,
  link: LinkSettings,
): { ok: true; body: LinkUpdateBody } | { ok: false; errors: LinkFormErrors } {
  const errors: LinkFormErrors = {};
  const title = values.title.trim();
  if (title.length > BUNDLE_TITLE_MAX) errors.title = 'admin.links.edit.titleTooLong';
  if (values.password.length > LINK_PASSWORD_MAX) errors.password = 'pastes.errors.passwordTooLong';
  const maxViews = parseMaxViews(values.maxViews);
  if (maxViews === null) errors.maxViews = 'pastes.errors.maxViewsInvalid';
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const body: LinkUpdateBody = {};
  if (title !== (link.title ?? '')) body.title = title || null;
  if (values.password) body.password = values.password;
  else if (values.clearPassword && link.has_password) body.password = null;
  if (values.expiry !== 'keep') body.expires_in = HOURS[values.expiry];
  if (maxViews !== link.max_views) body.max_views = maxViews!;
  return { ok: true, body };
}
