/**
 * Rules text shares and file shares apply alike: their state (live, revoked, expired, used up), link suffixes
 * (slugs) picked at random, share passwords checked under their rate limits, future
 * expiries, the LIKE pattern of management searches, and the API key name of a creator.
 */
import { creatorId, type Principal, type ShareState } from '@cubby/shared';
import { type Kysely, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import {
  type AppError,
  forbidden,
  internal,
  invalidFields,
  unauthenticated,
} from '../../errors/app-error.ts';
import type { MessageKey } from '../../errors/messages.ts';
import type { Attempt, AttemptLimiter, LimitRule } from '../../http/rate-limiter.ts';
import { hashPassword, randomString, verifyPassword } from '../../lib/crypto.ts';

const SLUG_LENGTH = 6;
const SLUG_ATTEMPTS = 10;

export type { ShareState };

/** A filter on shares by who they belong to: their owner (a person) or their creator (a key). */
export interface Whose {
  column: 'owner_id' | 'created_by';
  value: string;
}

/**
 * A principal's own shares (docs/accounts.md): a member's by owner (made by them or their keys); an
 * admin's and a key's by creator, as CloudPaste counts them.
 */
export function ownShares(principal: Principal): Whose {
  return principal.type === 'member'
    ? { column: 'owner_id', value: principal.id }
    : { column: 'created_by', value: creatorId(principal) };
}

/** The shares a principal manages: an admin everyone's (undefined), anyone else their own. */
export function managedShares(principal: Principal): Whose | undefined {
  return principal.type === 'admin' ? undefined : ownShares(principal);
}

/**
 * Whether a share can still be opened at `now`: revoked by its owner first (docs/api.md, "Revoking
 * a share"; the one home of that rule for every kind of share), then expiry, then its view limit.
 */
export function shareState(
  row: { expires_at: string | null; max_views: number; views: number; revoked_at?: string | null },
  now: Date,
): ShareState {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at !== null && row.expires_at <= now.toISOString()) return 'expired';
  if (row.max_views > 0 && row.views >= row.max_views) return 'used_up';
  return 'active';
}

/** A random slug `taken` does not know; after a few collisions the slugs grow longer. */
export async function randomSlug(
  taken: (slug: string) => Promise<boolean>,
  exhausted: MessageKey,
): Promise<string> {
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
    // After a few collisions, lengthen the slug rather than keep guessing in a crowded space.
    const slug = randomString(SLUG_LENGTH + Math.floor(attempt / 3));
    if (!(await taken(slug))) return slug;
  }
  throw internal(exhausted);
}

/**
 * Share-password guesses (and forged file tokens): tight per (share, address); per address across
 * shares a little looser; per share only a high bound, so a stranger cannot cheaply lock a share's
 * password form for everyone — should strangers reach it anyway, the log says so.
 */
const SHARE_PASSWORD_LIMITS = {
  perShareAndAddress: { name: 'share password per share and address', max: 5, windowMs: 60_000 },
  perAddress: { name: 'share password per address', max: 20, windowMs: 60_000 },
  perShare: { name: 'share password per share', max: 100, windowMs: 60_000, warn: true },
} as const satisfies Record<string, LimitRule>;

/**
 * Reserves one guess at a share's password (`share` names the share, e.g. `paste:<id>`), or 429
 * when the share, the address or the pair has had too many. Refund it when the guess was right.
 */
export function reserveShareGuess(
  limiter: AttemptLimiter,
  keys: { share: string; clientIp: string },
): Promise<Attempt> {
  const { share, clientIp } = keys;
  return limiter.reserve([
    { rule: SHARE_PASSWORD_LIMITS.perShareAndAddress, key: `${share} ${clientIp}` },
    { rule: SHARE_PASSWORD_LIMITS.perAddress, key: clientIp },
    { rule: SHARE_PASSWORD_LIMITS.perShare, key: share, logFields: { share } },
  ]);
}

/**
 * Checks a share password under the limits above: 429 when they are reached, then `wrong` (an
 * AppError) when it does not match, which counts as a guess.
 */
export async function checkSharePassword(
  limiter: AttemptLimiter,
  keys: { share: string; clientIp: string },
  passwordHash: string,
  password: string,
  wrong: () => AppError,
): Promise<void> {
  const attempt = await reserveShareGuess(limiter, keys);
  if (!(await verifyPassword(passwordHash, password))) throw wrong();
  await attempt.refund();
}

/**
 * The gate of a protected share's bytes for a request without a valid token (`check`: how its token,
 * if any, failed): a forged token counts as a wrong guess (403), an expired one is refused without
 * counting (403); else the password is wanted (401 without, 403 when wrong, 429 after too many).
 * `kind` names the messages (`files.…`, `bundles.…`).
 */
export async function checkShareCredentials(
  limiter: AttemptLimiter,
  keys: { share: string; clientIp: string },
  passwordHash: string,
  request: { check: { ok: false; reason: 'invalid' | 'expired' } | null; password: string | undefined },
  kind: 'files' | 'bundles',
): Promise<void> {
  if (request.check) {
    const attempt = await reserveShareGuess(limiter, keys);
    if (request.check.reason === 'expired') {
      await attempt.refund();
      throw forbidden(`${kind}.token_expired`);
    }
    throw forbidden(`${kind}.invalid_token`);
  }
  if (!request.password) throw unauthenticated(`${kind}.password_required`);
  await checkSharePassword(limiter, keys, passwordHash, request.password, () =>
    forbidden(`${kind}.wrong_password`),
  );
}

/** The body of a batch delete: 1 to 1,000 ids; `message` names the field's error. */
export const idsBodySchema = (message: 'ids_required' | 'file_ids_required') =>
  z.object({
    ids: z.array(z.string().max(200), { error: message }).min(1, { message }).max(1000, { message }),
  });

/** A future expiry as ISO text; null for none; 400 for a time not after `now`. */
export function futureExpiry(value: string | null | undefined, now: Date, field: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  if (date <= now) throw invalidFields('common.validation', { [field]: 'validation.invalid_expiry' });
  return date.toISOString();
}

/** The settings an owner may change on a file share or a folder share (every one optional). */
export interface ShareSettings {
  remark?: string | null | undefined;
  /** ISO time, or null / "" for never. */
  expires_at?: string | null | undefined;
  /** Hours from now; 0 for never (the upload forms' unit). */
  expires_in?: number | undefined;
  max_views?: number | undefined;
  /** A new password; "", null or false removes it. */
  password?: string | null | false | undefined;
}

/** The columns `input` changes on a share that has had `current.views` views, at `now`. */
export async function shareSettingChanges(
  input: ShareSettings,
  current: { views: number },
  now: Date,
): Promise<{
  remark?: string | null;
  expires_at?: string | null;
  max_views?: number;
  views?: number;
  password_hash?: string | null;
}> {
  const changes: Awaited<ReturnType<typeof shareSettingChanges>> = {};
  if (input.remark !== undefined) changes.remark = input.remark || null;
  if (input.expires_in !== undefined) {
    changes.expires_at =
      input.expires_in > 0 ? new Date(now.getTime() + input.expires_in * 3600_000).toISOString() : null;
  }
  if (input.expires_at !== undefined) changes.expires_at = futureExpiry(input.expires_at, now, 'expires_at');
  if (input.max_views !== undefined) {
    changes.max_views = input.max_views;
    // A new limit the share has already reached would use it up at once: start counting again.
    if (input.max_views > 0 && current.views >= input.max_views) changes.views = 0;
  }
  if (input.password) changes.password_hash = await hashPassword(input.password);
  else if (input.password !== undefined) changes.password_hash = null;
  return changes;
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%"; lower-cased, for `lower(col) like`. */
export function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The name of the API key behind a `created_by` value, or null for an admin or a deleted key. */
export function creatorKeyName(db: Kysely<Database>, createdBy: string | null): Promise<string | null> {
  const id = createdBy?.startsWith('apikey:') ? createdBy.slice('apikey:'.length) : null;
  if (!id) return Promise.resolve(null);
  return db
    .selectFrom('api_keys')
    .select('name')
    .where('id', '=', id)
    .executeTakeFirst()
    .then((row) => row?.name ?? null);
}

/**
 * Marks a share revoked (docs/api.md, "Revoking a share") once: a second revoke keeps the first
 * time. Its state is then 'revoked' (shareState above).
 */
export async function revokeShare(
  db: Kysely<Database>,
  table: 'pastes' | 'files',
  id: string,
  now: string,
): Promise<void> {
  await db
    .updateTable(table)
    .set({ revoked_at: now, updated_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The join condition from a share table's `created_by` to the API key that created it. */
export const createdByKey = (table: 'pastes' | 'files') =>
  sql<SqlBool>`${sql.ref(`${table}.created_by`)} = 'apikey:' || api_keys.id`;
