/** SQL for users, their extra paths and invites (docs/accounts.md). */
import type { Kysely, Updateable } from 'kysely';
import type { Database, InvitesTable, UserPathsTable, UsersTable } from '../../db/schema.ts';

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  countAdmins(): Promise<number> {
    return this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  /** Active admins other than `exceptId`: the last one may not be demoted, disabled or deleted. */
  countOtherActiveAdmins(exceptId: string): Promise<number> {
    return this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .where('id', '<>', exceptId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  list(): Promise<UsersTable[]> {
    return this.db.selectFrom('users').selectAll().orderBy('created_at').orderBy('username').execute();
  }

  findByUsername(username: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  findById(id: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Members with a quota on their home folder. */
  withQuota(): Promise<Pick<UsersTable, 'id' | 'username' | 'home_path' | 'quota_bytes'>[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'home_path', 'quota_bytes'])
      .where('role', '=', 'member')
      .where('quota_bytes', '>', 0)
      .execute();
  }

  findFirstAdmin(): Promise<UsersTable | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('role', '=', 'admin')
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
  }

  async insert(user: UsersTable): Promise<void> {
    await this.db.insertInto('users').values(user).execute();
  }

  async update(id: string, changes: Updateable<UsersTable>): Promise<void> {
    await this.db.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  paths(userId: string): Promise<UserPathsTable[]> {
    return this.db
      .selectFrom('user_paths')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('path')
      .execute();
  }

  pathsOf(userIds: readonly string[]): Promise<UserPathsTable[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('user_paths')
      .selectAll()
      .where('user_id', 'in', userIds)
      .orderBy('path')
      .execute();
  }

  /** Replaces a user's extra paths, all at once. */
  async setPaths(userId: string, paths: readonly Omit<UserPathsTable, 'user_id'>[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_paths').where('user_id', '=', userId).execute();
      if (paths.length > 0) {
        await trx
          .insertInto('user_paths')
          .values(paths.map((p) => ({ user_id: userId, path: p.path, access: p.access })))
          .execute();
      }
    });
  }

  /** Hands a user's pastes and file shares to another user (a deleted user's, when the admin says so). */
  async transferShares(fromId: string, toId: string): Promise<void> {
    await this.db.updateTable('pastes').set({ owner_id: toId }).where('owner_id', '=', fromId).execute();
    await this.db.updateTable('files').set({ owner_id: toId }).where('owner_id', '=', fromId).execute();
  }

  /** The ids of a user's pastes and file shares. */
  async sharesOf(userId: string): Promise<{ pastes: string[]; files: string[] }> {
    const [pastes, files] = await Promise.all([
      this.db.selectFrom('pastes').select('id').where('owner_id', '=', userId).execute(),
      this.db.selectFrom('files').select('id').where('owner_id', '=', userId).execute(),
    ]);
    return { pastes: pastes.map((r) => r.id), files: files.map((r) => r.id) };
  }

  async deleteKeysOf(userId: string): Promise<void> {
    await this.db.deleteFrom('api_keys').where('owner_id', '=', userId).execute();
  }

  // Invites

  async insertInvite(invite: InvitesTable): Promise<void> {
    await this.db.insertInto('invites').values(invite).execute();
  }

  listInvites(): Promise<InvitesTable[]> {
    return this.db.selectFrom('invites').selectAll().orderBy('created_at', 'desc').limit(500).execute();
  }

  findInviteByHash(tokenHash: string): Promise<InvitesTable | undefined> {
    return this.db.selectFrom('invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async deleteInvite(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('invites').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Marks an invite used, once: true for the one caller that took it (two people accepting the same
   * link at once cannot both get an account).
   */
  async takeInvite(id: string, userId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('invites')
      .set({ used_at: now, used_by: userId })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Runs `work` in one transaction (an invite taken and its user made, or neither). */
  transaction<T>(work: (repo: UsersRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new UsersRepository(trx)));
  }
}
