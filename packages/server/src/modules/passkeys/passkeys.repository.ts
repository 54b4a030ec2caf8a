/** SQL for passkeys: the credentials people registered and the ceremonies under way (docs/accounts.md). */
import type { Kysely, Updateable } from 'kysely';
import type { Database, PasskeyChallengesTable, PasskeysTable, UsersTable } from '../../db/schema.ts';

export class PasskeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listOf(userId: string): Promise<PasskeysTable[]> {
    return this.db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  countOf(userId: string): Promise<number> {
    return this.db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  /** The passkey the browser names, and whose it is. */
  async findWithUser(
    credentialId: string,
  ): Promise<{ passkey: PasskeysTable; user: UsersTable } | undefined> {
    const passkey = await this.db
      .selectFrom('passkeys')
      .selectAll()
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
    if (!passkey) return undefined;
    const user = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', passkey.user_id)
      .executeTakeFirst();
    return user ? { passkey, user } : undefined;
  }

  async insert(row: PasskeysTable): Promise<void> {
    await this.db.insertInto('passkeys').values(row).execute();
  }

  /** True when the person has such a passkey (someone else's is not found). */
  async update(userId: string, id: string, changes: Updateable<PasskeysTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('passkeys')
      .set(changes)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Stores a use's sign counter, only when it moved forward from `previous` (two sign-ins with one
   * assertion's counter: one wins).
   */
  async recordUse(id: string, previous: number, counter: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('passkeys')
      .set({ sign_count: counter, last_used_at: now })
      .where('id', '=', id)
      .where('sign_count', '=', previous)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('passkeys')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async insertChallenge(row: PasskeyChallengesTable): Promise<void> {
    await this.db.insertInto('passkey_challenges').values(row).execute();
  }

  /**
   * Takes a ceremony under way: answers it and deletes it, or undefined when it is unknown or another
   * request took it first (a delete counts once, whichever instance runs it).
   */
  async takeChallenge(id: string): Promise<PasskeyChallengesTable | undefined> {
    const row = await this.db
      .selectFrom('passkey_challenges')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const result = await this.db.deleteFrom('passkey_challenges').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1 ? row : undefined;
  }

  /** Forgets ceremonies never finished; bounded, as it runs with each new one. */
  async deleteExpiredChallenges(now: string, limit = 100): Promise<void> {
    await this.db
      .deleteFrom('passkey_challenges')
      .where(
        'id',
        'in',
        this.db.selectFrom('passkey_challenges').select('id').where('expires_at', '<', now).limit(limit),
      )
      .execute();
  }
}
