/** SQL for LDAP sign-in: the one directory's settings, and who is linked to a directory entry. */
import type { Kysely } from 'kysely';
import type { Database, LdapConfigTable, UsersTable } from '../../db/schema.ts';

export const LDAP_CONFIG_ID = 'default';

export class LdapRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(): Promise<LdapConfigTable | undefined> {
    return this.db.selectFrom('ldap_config').selectAll().where('id', '=', LDAP_CONFIG_ID).executeTakeFirst();
  }

  async save(row: LdapConfigTable): Promise<void> {
    const changes: Partial<LdapConfigTable> = { ...row };
    delete changes.id;
    await this.db
      .insertInto('ldap_config')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(changes))
      .execute();
  }

  findUserByDn(dn: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('ldap_dn', '=', dn).executeTakeFirst();
  }

  async setUserDn(userId: string, dn: string, now: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ ldap_dn: dn, updated_at: now })
      .where('id', '=', userId)
      .execute();
  }
}
