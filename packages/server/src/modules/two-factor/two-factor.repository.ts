/** SQL for two-factor sign-in: the TOTP columns of users and the recovery codes (docs/accounts.md). */
import type { Kysely, Updateable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.ts';

export class TwoFactorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async update(userId: string, changes: Updateable<UsersTable>): Promise<void> {
    await this.db.updateTable('users').set(changes).where('id', '=', userId).execute();
  }

  /**
   * Takes time step `step` for a user's code, once: false when it (or a later one) was used already,
   * so a code seen by someone else over a shoulder or a proxy cannot be used again.
   */
  async takeStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Replaces a user's recovery codes with new ones (hashes). */
  async setRecoveryCodes(
    userId: string,
    hashes: readonly { id: string; code_hash: string }[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      if (hashes.length > 0) {
        await trx
          .insertInto('recovery_codes')
          .values(hashes.map((h) => ({ ...h, user_id: userId, used_at: null })))
          .execute();
      }
    });
  }

  /** Uses one recovery code, once (two requests with it: one wins). */
  async useRecoveryCode(userId: string, codeHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  countRecoveryCodesLeft(userId: string): Promise<number> {
    return this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }
}
