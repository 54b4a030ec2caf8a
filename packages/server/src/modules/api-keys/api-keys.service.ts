/**
 * API keys: generated (≥ 128 random bits) or custom, stored only as a keyed hash plus a 4-character
 * display prefix; the full key is returned once, by create. Resolves `ApiKey` credentials.
 */
import { randomUUID } from 'node:crypto';
import {
  grantsOf,
  narrowGrants,
  normalizeFsPath,
  NEVER_EXPIRES,
  type apiKeyCreateSchema,
  type apiKeyUpdateSchema,
  type ApiKeyView,
  type Principal,
} from '@cubby/shared';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.ts';
import type { ApiKeysTable } from '../../db/schema.ts';
import { badRequest, conflict, invalidFields, notFound } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { hmacHex, randomString } from '../../lib/crypto.ts';
import type { ApiKeysRepository } from './api-keys.repository.ts';

const GENERATED_KEY_LENGTH = 32; // 32 characters over a 57-character alphabet ≈ 186 bits
const DISPLAY_PREFIX_LENGTH = 4;
const DEFAULT_LIFETIME_MS = 24 * 3600_000;
const LAST_USED_RESOLUTION_MS = 60_000;

export function toApiKeyView(row: ApiKeysTable & { owner_name?: string | null }): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    key_masked: `${row.key_prefix}...`,
    text_permission: row.text_permission === 1,
    file_permission: row.file_permission === 1,
    mount_permission: row.mount_permission === 1,
    basic_path: row.basic_path,
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used: row.last_used,
    owner_id: row.owner_id,
    ...(row.owner_name !== undefined ? { owner_name: row.owner_name } : {}),
  };
}

/** The person a key belongs to, as they are now (null once they are disabled or deleted). */
export type KeyOwners = (userId: string) => Promise<Principal | null>;

/**
 * Whose keys a principal manages: an admin everyone's (undefined), a member their own. Keys do not
 * manage keys (the routes are for people).
 */
const ownerFilter = (principal: Principal): string | undefined =>
  principal.type === 'admin' ? undefined : principal.id;

export class ApiKeysService {
  constructor(
    private readonly repo: ApiKeysRepository,
    private readonly clock: Clock,
    private readonly secretKey: string,
    private readonly owners: KeyOwners,
  ) {}

  async list(principal: Principal): Promise<ApiKeyView[]> {
    return (await this.repo.list(ownerFilter(principal))).map(toApiKeyView);
  }

  async create(
    principal: Principal,
    input: z.output<typeof apiKeyCreateSchema>,
  ): Promise<ApiKeyView & { key: string }> {
    if (input.basic_path !== undefined) this.checkReach(principal, input.basic_path);
    const now = this.clock.now();
    const key = input.custom_key || randomString(GENERATED_KEY_LENGTH);
    const row: ApiKeysTable = {
      id: randomUUID(),
      name: input.name,
      key_hash: this.hashKey(key),
      key_prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
      text_permission: input.text_permission ? 1 : 0,
      file_permission: input.file_permission ? 1 : 0,
      mount_permission: input.mount_permission ? 1 : 0,
      basic_path: input.basic_path ?? '/',
      created_at: now.toISOString(),
      expires_at:
        input.expires_at === undefined
          ? new Date(now.getTime() + DEFAULT_LIFETIME_MS).toISOString()
          : this.expiry(input.expires_at, now),
      last_used: null,
      owner_id: principal.id,
    };
    if (await this.repo.findByName(row.name)) throw conflict('apikeys.name_taken');
    try {
      await this.repo.insert(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw conflict((await this.repo.findByName(row.name)) ? 'apikeys.name_taken' : 'apikeys.key_taken');
    }
    return { ...toApiKeyView(row), key };
  }

  async update(
    principal: Principal,
    id: string,
    input: z.output<typeof apiKeyUpdateSchema>,
  ): Promise<ApiKeyView> {
    if (input.basic_path !== undefined) this.checkReach(principal, input.basic_path);
    const changes: Partial<ApiKeysTable> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.text_permission !== undefined) changes.text_permission = input.text_permission ? 1 : 0;
    if (input.file_permission !== undefined) changes.file_permission = input.file_permission ? 1 : 0;
    if (input.mount_permission !== undefined) changes.mount_permission = input.mount_permission ? 1 : 0;
    if (input.basic_path !== undefined) changes.basic_path = input.basic_path;
    if (input.expires_at !== undefined && input.expires_at !== '') {
      changes.expires_at = this.expiry(input.expires_at, this.clock.now());
    }
    if (Object.keys(changes).length === 0) throw badRequest('apikeys.nothing_to_update');
    if (!(await this.repo.findById(id, ownerFilter(principal)))) throw notFound('apikeys.not_found');
    if (changes.name !== undefined) {
      const other = await this.repo.findByName(changes.name);
      if (other && other.id !== id) throw conflict('apikeys.name_taken');
    }
    try {
      await this.repo.update(id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('apikeys.name_taken');
      throw error;
    }
    return toApiKeyView((await this.repo.findById(id))!);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    if (!(await this.repo.findById(id, ownerFilter(principal)))) throw notFound('apikeys.not_found');
    if (!(await this.repo.delete(id))) throw notFound('apikeys.not_found');
  }

  /** 400 when a key's base path lies outside everything its maker reaches (it would reach nothing). */
  private checkReach(principal: Principal, basicPath: string): void {
    if (narrowGrants(grantsOf(principal), { path: basicPath, write: true }).length === 0) {
      throw invalidFields('common.validation', { basic_path: 'apikeys.path_out_of_reach' });
    }
  }

  /**
   * A key as a principal: its permissions, and where it reaches — its base path within its owner's
   * reach (a key older than accounts has no owner and reaches its base path). Null when its owner
   * is disabled or gone.
   */
  private async keyPrincipal(row: ApiKeysTable): Promise<Principal | null> {
    const view = toApiKeyView(row);
    const base = normalizeFsPath(row.basic_path);
    // A stored base path that no longer normalises reaches nothing, never everything.
    const scope = base === null ? [] : [{ path: base, write: true }];
    let grants = scope;
    if (row.owner_id !== null) {
      const owner = await this.owners(row.owner_id);
      if (!owner) return null;
      grants = scope.flatMap((s) => narrowGrants(grantsOf(owner), s));
    }
    return {
      type: 'apikey',
      id: row.id,
      name: row.name,
      basicPath: row.basic_path,
      permissions: { text: view.text_permission, file: view.file_permission, mount: view.mount_permission },
      ownerId: row.owner_id,
      grants,
    };
  }

  /** The key's principal, or null when the key is unknown or expired. Notes use once a minute at most. */
  async resolveKey(key: string): Promise<Principal | null> {
    const now = this.clock.now();
    const row = await this.repo.findLiveByHash(this.hashKey(key), now.toISOString());
    if (!row) return null;
    await this.repo.touchLastUsed(
      row.id,
      now.toISOString(),
      new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString(),
    );
    return this.keyPrincipal(row);
  }

  /**
   * The principal of the key with this id as it is now (its current permissions and base path), or
   * null when it was deleted or has expired: for links a key made, checked again when they are used.
   */
  async resolveKeyById(id: string): Promise<Principal | null> {
    const row = await this.repo.findById(id);
    if (!row || row.expires_at <= this.clock.now().toISOString()) return null;
    return this.keyPrincipal(row);
  }

  private hashKey(key: string): string {
    return hmacHex(this.secretKey, `api-key:${key}`);
  }

  private expiry(value: string | null, now: Date): string {
    if (value === null || value === 'never') return NEVER_EXPIRES;
    const date = new Date(value);
    if (Number.isNaN(date.getTime()) || date <= now) {
      throw invalidFields('common.validation', { expires_at: 'validation.invalid_expiry' });
    }
    return date.toISOString();
  }
}
