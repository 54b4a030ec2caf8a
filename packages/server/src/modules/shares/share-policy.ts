/**
 * The share policy (docs/api.md, "Share policy"): one function every door that makes or changes a
 * share calls — pastes, every share upload (form, ShareX, direct, presign, multipart, URL, tus
 * `share`), fs/share, folder shares and bundles — with what it knows. It answers the expiry and view
 * limit to store (the admin's defaults where a new share gives none) or throws the AppError. With no
 * policy set it changes nothing, so CloudPaste 0.6 clients see today's answers.
 *
 * Who is bound: everyone by the expiry, views, size and types limits, the admin too; only shares
 * made with an API key (`created_by` `apikey:…`) by the two key rules — a person signed in, admin or
 * member, may still make a permanent or unprotected share (the key rules are for unattended tools).
 */
import { formatBytes, fileRefusal, type SharePolicy } from '@cubby/shared';
import { badRequest, tooLarge, unsupportedType } from '../../errors/app-error.ts';

const HOUR_MS = 3600_000;
/** An expiry computed on a client a moment before the request still fits an exact maximum. */
const CLOCK_SLACK_MS = 60_000;

export interface ShareRequest {
  /** The share's `created_by` (creatorId of the principal): whether an API key makes it. */
  createdBy: string | null;
  /** `create`: absent values get the defaults; `update`: absent values are left as they are, unchecked. */
  mode: 'create' | 'update';
  /** ISO time; null: never; undefined: none given. */
  expires_at?: string | null | undefined;
  /** 0: unlimited; undefined: none given. */
  max_views?: number | undefined;
  /** Whether the share will have a password; undefined: unchanged. */
  has_password?: boolean | undefined;
  /** Bytes of the share (a file's size, a paste's text, a bundle's files), when known. */
  size?: number | undefined;
  /** The names of the files it shares, when it shares files. */
  filenames?: readonly string[] | undefined;
}

/** The values to store: for `create` both, with defaults applied; for `update` only the given ones. */
export interface SharePolicyValues {
  expires_at?: string | null;
  max_views?: number;
}

/** 413: a share larger than the policy's `max_bytes` (also when a streamed upload passes it). */
export function shareTooLarge(limit: number, size: number) {
  return tooLarge('share_policy.too_large', { limit: formatBytes(limit), size: formatBytes(size) });
}

/** Checks `request` against `policy` at `now`; the values to store, or throws 400/413/415. */
export function enforceSharePolicy(policy: SharePolicy, request: ShareRequest, now: Date): SharePolicyValues {
  const out: SharePolicyValues = {};
  let expires = request.expires_at;
  let views = request.max_views;
  if (request.mode === 'create') {
    expires ??=
      request.expires_at === undefined && policy.default_expiry_hours !== null
        ? new Date(now.getTime() + policy.default_expiry_hours * HOUR_MS).toISOString()
        : null;
    views ??= policy.default_max_views ?? 0;
  }
  const byKey = request.createdBy?.startsWith('apikey:') ?? false;
  if (expires !== undefined) {
    const hours = policy.max_expiry_hours;
    if (hours !== null) {
      if (expires === null) throw badRequest('share_policy.expiry_required', { hours });
      if (Date.parse(expires) > now.getTime() + hours * HOUR_MS + CLOCK_SLACK_MS) {
        throw badRequest('share_policy.expiry_too_late', { hours });
      }
    }
    if (expires === null && byKey && !policy.keys_may_make_permanent) {
      throw badRequest('share_policy.key_permanent');
    }
    out.expires_at = expires;
  }
  if (views !== undefined) {
    const max = policy.max_views;
    if (max !== null && (views === 0 || views > max))
      throw badRequest('share_policy.views_too_many', { max });
    out.max_views = views;
  }
  if (request.has_password === false && byKey && !policy.keys_may_make_unprotected) {
    throw badRequest('share_policy.key_unprotected');
  }
  const size = request.size;
  if (policy.max_bytes !== null && size !== undefined && size > policy.max_bytes) {
    throw shareTooLarge(policy.max_bytes, size);
  }
  for (const name of request.filenames ?? []) {
    const refusal = fileRefusal(policy, { name });
    if (refusal?.reason === 'type_not_allowed') {
      throw unsupportedType('share_policy.type_not_allowed', {
        name: name.slice(0, 200),
        types: refusal.types,
      });
    }
  }
  return out;
}

/** Where the policy is read (SettingsService). */
export interface SharePolicySource {
  sharePolicy(): Promise<SharePolicy>;
}

/**
 * The policy on the columns a share's settings change (shareSettingChanges in share-rules.ts):
 * `changes` with the values to store (for `create`, the defaults) — or the AppError.
 */
export async function policedChanges<
  T extends { expires_at?: string | null; max_views?: number; password_hash?: string | null },
>(
  source: SharePolicySource,
  changes: T,
  request: Omit<ShareRequest, 'expires_at' | 'max_views' | 'has_password'>,
  now: Date,
): Promise<T> {
  const hasPassword =
    'password_hash' in changes
      ? changes.password_hash != null
      : request.mode === 'create'
        ? false
        : undefined;
  const values = enforceSharePolicy(
    await source.sharePolicy(),
    { ...request, expires_at: changes.expires_at, max_views: changes.max_views, has_password: hasPassword },
    now,
  );
  return { ...changes, ...values };
}
