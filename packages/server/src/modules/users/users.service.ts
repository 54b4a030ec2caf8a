/**
 * People (docs/accounts.md): who they are as a principal (an admin everywhere; a member in their home
 * folder and extra paths), the admin's management of them (create, change, disable, delete with a
 * choice for what they shared) and their home folders, made on first use.
 *
 * Disabling or deleting a user ends their sessions at once, and their keys and app passwords stop:
 * every credential is resolved through {@link UsersService.principalById} on every request, which
 * answers null for a user who is not active — on every instance, since they share the database.
 */
import { randomUUID } from 'node:crypto';
import {
  HOMES_ROOT,
  normalizeFsPath,
  type PathGrant,
  type Principal,
  type userCreateSchema,
  type userDeleteSchema,
  type userUpdateSchema,
  type UserView,
} from '@cubby/shared';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.ts';
import type { UserPathsTable, UserRole, UsersTable } from '../../db/schema.ts';
import { badRequest, conflict, conflictingFields, notFound } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/crypto.ts';
import type { UsersRepository } from './users.repository.ts';

/** What deleting a user's shares needs from the share modules (their objects go too). */
export interface ShareRemover {
  deletePastes(ids: string[]): Promise<unknown>;
  deleteFiles(ids: string[]): Promise<unknown>;
}

/** Making a home folder: the vfs, as a principal that may write there. */
export type MakeFolder = (principal: Principal, path: string) => Promise<unknown>;

export interface UsersDeps {
  repo: UsersRepository;
  clock: Clock;
  /** Sessions of a user end (a disable, a password reset, a delete). */
  endSessions: (userId: string) => Promise<void>;
  shares: ShareRemover;
  makeFolder: MakeFolder;
  /** A person's home or quota changed: what their home holds is counted again when next needed. */
  quotaChanged: (key: string) => Promise<void>;
}

/** The key of a member's home-folder quota (vfs/quota.ts scopes). */
export const homeQuotaKey = (userId: string) => `user:${userId}`;

/** A new person's row: active, no second factor yet; `fields` says who they are. */
export async function newUserRow(
  fields: Pick<UsersTable, 'username' | 'role'> &
    Partial<Pick<UsersTable, 'email' | 'home_path' | 'quota_bytes' | 'ldap_dn'>> & { password: string },
  now: string,
): Promise<UsersTable> {
  return {
    id: randomUUID(),
    username: fields.username,
    password_hash: await hashPassword(fields.password),
    role: fields.role,
    email: fields.email || null,
    status: 'active',
    // Only members have a home folder of their own.
    home_path: fields.role === 'member' ? fields.home_path || null : null,
    quota_bytes: fields.quota_bytes ?? null,
    totp_secret: null,
    totp_pending: null,
    totp_enabled_at: null,
    totp_last_step: null,
    ldap_dn: fields.ldap_dn ?? null,
    created_at: now,
    updated_at: now,
  };
}

/** A member's home folder: the one set, else the homes root and their username. */
export function homePathOf(user: Pick<UsersTable, 'home_path' | 'username'>): string {
  return user.home_path ?? `${HOMES_ROOT}/${user.username}`;
}

/** Where a user reaches: an admin everywhere; a member their home (read-write) and extra paths. */
export function grantsFor(
  user: Pick<UsersTable, 'role' | 'home_path' | 'username'>,
  paths: readonly Pick<UserPathsTable, 'path' | 'access'>[],
): PathGrant[] | undefined {
  if (user.role === 'admin') return undefined;
  return [
    { path: homePathOf(user), write: true },
    ...paths.flatMap((p) => {
      const path = normalizeFsPath(p.path);
      // A stored path that no longer normalises grants nothing, never everything.
      return path === null ? [] : [{ path, write: p.access === 'write' }];
    }),
  ];
}

export function userPrincipal(
  user: Pick<UsersTable, 'id' | 'username' | 'role' | 'home_path'>,
  paths: readonly Pick<UserPathsTable, 'path' | 'access'>[],
): Principal {
  if (user.role === 'admin') return { type: 'admin', id: user.id, username: user.username };
  return { type: 'member', id: user.id, username: user.username, grants: grantsFor(user, paths)! };
}

export class UsersService {
  /** Homes known to exist, so a member's every sign-in does not ask the storage again. */
  private readonly madeHomes = new Set<string>();

  constructor(private readonly deps: UsersDeps) {}

  get repo(): UsersRepository {
    return this.deps.repo;
  }

  /** The active user with this id as a principal, or null (unknown, disabled, deleted). */
  async principalById(id: string): Promise<Principal | null> {
    const user = await this.deps.repo.findById(id);
    if (!user || user.status !== 'active') return null;
    return this.principalOf(user);
  }

  async principalOf(user: UsersTable): Promise<Principal> {
    return userPrincipal(user, user.role === 'admin' ? [] : await this.deps.repo.paths(user.id));
  }

  /**
   * The user with the role a sign-in's provider or directory gives (docs/accounts.md): changed when
   * it differs, except that the last active admin is never demoted. `undefined` maps no role.
   */
  async withProvidedRole(user: UsersTable, role: UserRole | undefined): Promise<UsersTable> {
    if (!role || role === user.role) return user;
    if (role === 'member' && (await this.deps.repo.countOtherActiveAdmins(user.id)) === 0) return user;
    await this.deps.repo.update(user.id, { role, updated_at: this.deps.clock.now().toISOString() });
    await this.deps.quotaChanged(homeQuotaKey(user.id));
    return { ...user, role };
  }

  /** Members' home folders with their quotas, as virtual paths (vfs/resolve.ts folderQuotas). */
  async homeQuotas(): Promise<{ key: string; path: string; quota: number; ownerId: string }[]> {
    return (await this.deps.repo.withQuota()).map((user) => ({
      key: homeQuotaKey(user.id),
      path: homePathOf(user),
      quota: user.quota_bytes!,
      ownerId: user.id,
    }));
  }

  /** Makes a member's home folder if it is not there yet (on first use); never fails the caller. */
  async ensureHome(user: Pick<UsersTable, 'id' | 'username' | 'role' | 'home_path'>): Promise<void> {
    if (user.role !== 'member') return;
    const home = homePathOf(user);
    if (this.madeHomes.has(`${user.id}\n${home}`)) return;
    try {
      await this.deps.makeFolder(userPrincipal(user, []), home);
      this.madeHomes.add(`${user.id}\n${home}`);
    } catch {
      // No mount holds it yet, or the storage is away: the next sign-in tries again.
    }
  }

  async list(): Promise<UserView[]> {
    const users = await this.deps.repo.list();
    const paths = await this.deps.repo.pathsOf(users.map((u) => u.id));
    return users.map((u) =>
      this.view(
        u,
        paths.filter((p) => p.user_id === u.id),
      ),
    );
  }

  /** A person's row as it is now (the signed-in person's own routes); 404 when they are gone. */
  async row(id: string): Promise<UsersTable> {
    const user = await this.deps.repo.findById(id);
    if (!user) throw notFound('users.not_found');
    return user;
  }

  async get(id: string): Promise<UserView> {
    const user = await this.deps.repo.findById(id);
    if (!user) throw notFound('users.not_found');
    return this.view(user, await this.deps.repo.paths(id));
  }

  async create(input: z.output<typeof userCreateSchema>): Promise<UserView> {
    const now = this.deps.clock.now().toISOString();
    const user = await newUserRow(input, now);
    await this.insert(user);
    if (input.paths) await this.deps.repo.setPaths(user.id, input.paths);
    return this.get(user.id);
  }

  /** Inserts a new user; 409 naming the field when the username is taken. */
  async insert(user: UsersTable, repo = this.deps.repo): Promise<void> {
    if (await repo.findByUsername(user.username)) {
      throw conflictingFields('auth.username_taken', { username: 'auth.username_taken' });
    }
    try {
      await repo.insert(user);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw conflictingFields('auth.username_taken', { username: 'auth.username_taken' });
      }
      throw error;
    }
  }

  async update(id: string, input: z.output<typeof userUpdateSchema>): Promise<UserView> {
    const user = await this.deps.repo.findById(id);
    if (!user) throw notFound('users.not_found');
    const changes: Partial<UsersTable> = {};
    if (input.role !== undefined) changes.role = input.role;
    if (input.email !== undefined) changes.email = input.email || null;
    if (input.status !== undefined) changes.status = input.status;
    if (input.home_path !== undefined) changes.home_path = input.home_path || null;
    if (input.quota_bytes !== undefined) changes.quota_bytes = input.quota_bytes;
    if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
    if (Object.keys(changes).length === 0 && input.paths === undefined) {
      throw badRequest('users.nothing_to_change');
    }
    const stopsBeingAdmin =
      user.role === 'admin' &&
      user.status === 'active' &&
      ((changes.role ?? 'admin') !== 'admin' || (changes.status ?? 'active') !== 'active');
    if (stopsBeingAdmin) await this.keepAnAdmin(id);
    await this.deps.repo.update(id, { ...changes, updated_at: this.deps.clock.now().toISOString() });
    if (input.paths !== undefined) await this.deps.repo.setPaths(id, input.paths);
    if (changes.home_path !== undefined || changes.quota_bytes !== undefined || changes.role !== undefined) {
      await this.deps.quotaChanged(homeQuotaKey(id));
    }
    // A disabled user, or one whose password the admin set, is signed out everywhere.
    if (changes.status === 'disabled' || changes.password_hash !== undefined) {
      await this.deps.endSessions(id);
    }
    return this.get(id);
  }

  /**
   * Deletes a user: their sessions, keys and app passwords go with them; their pastes and file
   * shares are kept (owned by no one; admins still see them), handed to an admin, or deleted.
   */
  async delete(actor: Principal, id: string, input: z.output<typeof userDeleteSchema>): Promise<void> {
    const user = await this.deps.repo.findById(id);
    if (!user) throw notFound('users.not_found');
    if (actor.id === id) throw conflict('users.cannot_delete_self');
    if (user.role === 'admin') await this.keepAnAdmin(id);
    if (input.shares === 'transfer') {
      const to = input.transfer_to ? await this.deps.repo.findById(input.transfer_to) : undefined;
      if (!to || to.role !== 'admin' || to.id === id) {
        throw conflictingFields('users.transfer_target_invalid', {
          transfer_to: 'users.transfer_target_invalid',
        });
      }
      await this.deps.repo.transferShares(id, to.id);
    } else if (input.shares === 'delete') {
      const shares = await this.deps.repo.sharesOf(id);
      await this.deps.shares.deletePastes(shares.pastes);
      await this.deps.shares.deleteFiles(shares.files);
    }
    await this.deps.endSessions(id);
    await this.deps.repo.deleteKeysOf(id);
    await this.deps.repo.delete(id); // sessions, paths and app passwords follow (foreign keys)
  }

  /** 409 when `id` is the last active admin: someone must still be able to run the server. */
  private async keepAnAdmin(id: string): Promise<void> {
    if ((await this.deps.repo.countOtherActiveAdmins(id)) === 0) throw conflict('users.last_admin');
  }

  view(user: UsersTable, paths: readonly Pick<UserPathsTable, 'path' | 'access'>[]): UserView {
    return {
      id: user.id,
      username: user.username,
      role: user.role,
      email: user.email,
      status: user.status,
      home_path: user.role === 'member' ? homePathOf(user) : null,
      quota_bytes: user.quota_bytes,
      paths: paths.map((p) => ({ path: p.path, access: p.access })),
      created_at: user.created_at,
      updated_at: user.updated_at,
    };
  }
}
