/**
 * App passwords (docs/accounts.md): one per device or script, named, shown once, stored only as a
 * keyed hash, read only or read-write, optionally confined to one folder, revocable, with its last
 * use. WebDAV's Basic login takes the username and an app password: the principal is the person,
 * narrowed to what the app password allows — and it stops the moment the person is disabled or
 * deleted, or the password revoked.
 */
import { randomUUID } from 'node:crypto';
import {
  type AppPasswordView,
  type appPasswordCreateSchema,
  grantsOf,
  narrowGrants,
  type Principal,
} from '@cubby/shared';
import type { z } from 'zod';
import type { AppPasswordsTable } from '../../db/schema.ts';
import { conflict, notFound } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { hmacHex, randomString } from '../../lib/crypto.ts';
import type { UsersService } from '../users/users.service.ts';
import type { AppPasswordsRepository } from './app-passwords.repository.ts';

/** 32 characters over a 57-character alphabet: about 186 bits, never guessed. */
const SECRET_LENGTH = 32;
const PREFIX_LENGTH = 4;
const MAX_PER_USER = 100;
const LAST_USED_RESOLUTION_MS = 60_000;

export function toAppPasswordView(row: AppPasswordsTable): AppPasswordView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    access: row.access,
    path: row.path,
    created_at: row.created_at,
    last_used: row.last_used,
  };
}

export class AppPasswordsService {
  constructor(
    private readonly repo: AppPasswordsRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
    private readonly secretKey: string,
  ) {}

  async list(userId: string): Promise<AppPasswordView[]> {
    return (await this.repo.listOf(userId)).map(toAppPasswordView);
  }

  async create(
    userId: string,
    input: z.output<typeof appPasswordCreateSchema>,
  ): Promise<AppPasswordView & { password: string }> {
    if ((await this.repo.countOf(userId)) >= MAX_PER_USER) throw conflict('app_passwords.too_many');
    const password = randomString(SECRET_LENGTH);
    const row: AppPasswordsTable = {
      id: randomUUID(),
      user_id: userId,
      name: input.name,
      secret_hash: this.hash(password),
      prefix: password.slice(0, PREFIX_LENGTH),
      access: input.access,
      path: input.path || null,
      created_at: this.clock.now().toISOString(),
      last_used: null,
    };
    await this.repo.insert(row);
    return { ...toAppPasswordView(row), password };
  }

  async revoke(userId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(userId, id))) throw notFound('app_passwords.not_found');
  }

  /**
   * The person behind `username` + an app password, narrowed to what it allows; null when the
   * password is no app password of that active person (the caller then tries the account password).
   */
  async resolve(username: string, password: string): Promise<Principal | null> {
    const row = await this.repo.findByHash(this.hash(password));
    if (!row) return null;
    const user = await this.users.repo.findById(row.user_id);
    if (!user || user.status !== 'active' || user.username.toLowerCase() !== username.trim().toLowerCase()) {
      return null;
    }
    const now = this.clock.now();
    await this.repo.touch(
      row.id,
      now.toISOString(),
      new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString(),
    );
    const person = await this.users.principalOf(user);
    const grants = narrowGrants(grantsOf(person), { path: row.path ?? '/', write: row.access === 'write' });
    return { ...person, grants };
  }

  private hash(password: string): string {
    return hmacHex(this.secretKey, `app-password:${password}`);
  }
}
