/** SQL for sessions (docs/accounts.md): one row per signed-in device, its token stored only as a hash. */
import type { Kysely } from 'kysely';
import type { Database, SessionsTable, UsersTable } from '../../db/schema.ts';
import { touchLastUsed } from '../../db/touch.ts';

export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(session: SessionsTable): Promise<void> {
    await this.db.insertInto('sessions').values(session).execute();
  }

  /** The active user behind a live session token hash, with the session's id and last use. */
  async findBySession(
    tokenHash: string,
    now: string,
  ): Promise<{ user: UsersTable; sessionId: string; lastUsedAt: string | null } | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select(['sessions.id as session_id', 'sessions.last_used_at as session_last_used'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', now)
      .where('users.status', '=', 'active')
      .executeTakeFirst();
    if (!row) return undefined;
    const { session_id, session_last_used, ...user } = row;
    return { user, sessionId: session_id, lastUsedAt: session_last_used };
  }

  /** Notes a session's use and where from, at most once per `staleBefore` window. */
  touch(id: string, at: { now: string; staleBefore: string; ip: string; userAgent: string | null }) {
    return touchLastUsed(this.db, { table: 'sessions', column: 'last_used_at', id }, at, {
      ip: at.ip,
      ...(at.userAgent ? { user_agent: at.userAgent } : {}),
    });
  }

  listOf(userId: string, now: string): Promise<SessionsTable[]> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .limit(200)
      .execute();
  }

  async deleteByHash(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteOne(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Ends a user's sessions, but for the one whose token hash is `keepHash`. */
  async deleteOf(userId: string, keepHash?: string): Promise<number> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keepHash) query = query.where('token_hash', '<>', keepHash);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
