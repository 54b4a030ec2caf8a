/** SQL for admins and admin sessions. */
import type { Kysely } from 'kysely';
import type { AdminsTable, Database } from '../../db/schema.ts';

export class AuthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  countAdmins(): Promise<number> {
    return this.db
      .selectFrom('admins')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  findAdminByUsername(username: string): Promise<AdminsTable | undefined> {
    return this.db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst();
  }

  findAdminById(id: string): Promise<AdminsTable | undefined> {
    return this.db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findFirstAdmin(): Promise<AdminsTable | undefined> {
    return this.db.selectFrom('admins').selectAll().orderBy('created_at').limit(1).executeTakeFirst();
  }

  async insertAdmin(admin: AdminsTable): Promise<void> {
    await this.db.insertInto('admins').values(admin).execute();
  }

  async updateAdmin(
    id: string,
    changes: Partial<Pick<AdminsTable, 'username' | 'password_hash'>>,
    now: string,
  ) {
    await this.db
      .updateTable('admins')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async insertSession(session: Database['admin_sessions']): Promise<void> {
    await this.db.insertInto('admin_sessions').values(session).execute();
  }

  /** The admin behind a live session token hash. */
  findAdminBySession(tokenHash: string, now: string) {
    return this.db
      .selectFrom('admin_sessions')
      .innerJoin('admins', 'admins.id', 'admin_sessions.admin_id')
      .select(['admins.id as id', 'admins.username as username'])
      .where('admin_sessions.token_hash', '=', tokenHash)
      .where('admin_sessions.expires_at', '>', now)
      .executeTakeFirst();
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('admin_sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteSessionsOfAdmin(adminId: string): Promise<void> {
    await this.db.deleteFrom('admin_sessions').where('admin_id', '=', adminId).execute();
  }

  async deleteExpiredSessions(now: string): Promise<number> {
    const result = await this.db
      .deleteFrom('admin_sessions')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
