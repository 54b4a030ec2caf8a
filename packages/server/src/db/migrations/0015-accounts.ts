/**
 * Accounts (docs/accounts.md): the admins become users with a role — every existing admin an
 * `admin`, keeping their id, password and sessions — and members join them. Sessions record the
 * device and address they are used from; API keys, pastes and file shares record the user who owns
 * them (what existed belonged to the first admin, the only person there was); members get extra
 * paths beside their home folder; admins invite people by one-time links; people make app passwords
 * for WebDAV.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('admins').renameTo('users').execute();
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('admin'))
    .execute();
  await db.schema.alterTable('users').addColumn('email', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .execute();
  await db.schema.alterTable('users').addColumn('home_path', 'text').execute();
  await db.schema.alterTable('users').addColumn('quota_bytes', 'bigint').execute();
  await db.schema.createIndex('users_email').on('users').column('email').execute();

  await db.schema.alterTable('admin_sessions').renameTo('sessions').execute();
  await db.schema.alterTable('sessions').renameColumn('admin_id', 'user_id').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_used_at', 'text').execute();

  for (const table of ['api_keys', 'pastes', 'files']) {
    await db.schema.alterTable(table).addColumn('owner_id', 'text').execute();
    await sql`update ${sql.table(table)} set owner_id =
      (select id from users order by created_at limit 1)`.execute(db);
    await db.schema.createIndex(`${table}_owner_id`).on(table).column('owner_id').execute();
  }

  await db.schema
    .createTable('user_paths')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    /** 'read' or 'write'. */
    .addColumn('access', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_paths_pk', ['user_id', 'path'])
    .execute();

  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('home_path', 'text')
    .addColumn('quota_bytes', 'bigint')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('used_by', 'text')
    .execute();

  await db.schema
    .createTable('app_passwords')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    /** 'read' or 'write'. */
    .addColumn('access', 'text', (c) => c.notNull())
    /** The one folder it is confined to, or null for the person's whole reach. */
    .addColumn('path', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used', 'text')
    .execute();
  await db.schema.createIndex('app_passwords_user').on('app_passwords').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_passwords').execute();
  await db.schema.dropTable('invites').execute();
  await db.schema.dropTable('user_paths').execute();
  for (const table of ['files', 'pastes', 'api_keys']) {
    await db.schema.dropIndex(`${table}_owner_id`).execute();
    await db.schema.alterTable(table).dropColumn('owner_id').execute();
  }
  for (const column of ['last_used_at', 'ip', 'user_agent']) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
  await db.schema.alterTable('sessions').renameColumn('user_id', 'admin_id').execute();
  await db.schema.alterTable('sessions').renameTo('admin_sessions').execute();
  await db.schema.dropIndex('users_email').execute();
  // Members have no place among admins.
  await sql`delete from users where role <> 'admin'`.execute(db);
  for (const column of ['quota_bytes', 'home_path', 'status', 'email', 'role']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
  await db.schema.alterTable('users').renameTo('admins').execute();
}
