/** SQL for single sign-on: providers, linked identities and sign-ins under way (docs/accounts.md). */
import type { Kysely, Updateable } from 'kysely';
import type { Database, OidcIdentitiesTable, OidcLoginsTable, OidcProvidersTable } from '../../db/schema.ts';

export class OidcRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listProviders(): Promise<OidcProvidersTable[]> {
    return this.db.selectFrom('oidc_providers').selectAll().orderBy('created_at').orderBy('name').execute();
  }

  findProvider(id: string): Promise<OidcProvidersTable | undefined> {
    return this.db.selectFrom('oidc_providers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertProvider(row: OidcProvidersTable): Promise<void> {
    await this.db.insertInto('oidc_providers').values(row).execute();
  }

  async updateProvider(id: string, changes: Updateable<OidcProvidersTable>): Promise<void> {
    await this.db.updateTable('oidc_providers').set(changes).where('id', '=', id).execute();
  }

  /** True when there was such a provider; its identities and sign-ins under way go with it (cascade). */
  async deleteProvider(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('oidc_providers').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  findIdentity(providerId: string, subject: string): Promise<OidcIdentitiesTable | undefined> {
    return this.db
      .selectFrom('oidc_identities')
      .selectAll()
      .where('provider_id', '=', providerId)
      .where('subject', '=', subject)
      .executeTakeFirst();
  }

  async insertIdentity(row: OidcIdentitiesTable): Promise<void> {
    await this.db.insertInto('oidc_identities').values(row).execute();
  }

  async touchIdentity(providerId: string, subject: string, now: string): Promise<void> {
    await this.db
      .updateTable('oidc_identities')
      .set({ last_login_at: now })
      .where('provider_id', '=', providerId)
      .where('subject', '=', subject)
      .execute();
  }

  async insertLogin(row: OidcLoginsTable): Promise<void> {
    await this.db.insertInto('oidc_logins').values(row).execute();
  }

  /**
   * Takes a sign-in under way: answers it and deletes it, or undefined when it is unknown or another
   * request took it first (a delete counts once, whichever instance runs it).
   */
  async takeLogin(stateHash: string): Promise<OidcLoginsTable | undefined> {
    const row = await this.db
      .selectFrom('oidc_logins')
      .selectAll()
      .where('state_hash', '=', stateHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const result = await this.db
      .deleteFrom('oidc_logins')
      .where('state_hash', '=', stateHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1 ? row : undefined;
  }

  /** Forgets sign-ins never finished; bounded, as it runs at each start. */
  async deleteExpiredLogins(now: string, limit = 100): Promise<void> {
    await this.db
      .deleteFrom('oidc_logins')
      .where(
        'state_hash',
        'in',
        this.db.selectFrom('oidc_logins').select('state_hash').where('expires_at', '<', now).limit(limit),
      )
      .execute();
  }

  /** Users whose email is this one (as given, or in lower case): the `users_email` index answers. */
  findUsersByEmail(email: string) {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', 'in', [...new Set([email, email.toLowerCase()])])
      .limit(2)
      .execute();
  }
}
