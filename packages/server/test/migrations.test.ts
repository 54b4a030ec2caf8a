/**
 * The data steps of migrations, on both databases: rows written by an earlier version are brought
 * into the current form (a database is migrated up to the migration before, seeded, then migrated on).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { migrate } from '../src/db/database.ts';
import { SessionsRepository } from '../src/modules/auth/sessions.repository.ts';
import type { Database, FilesTable, MountsTable } from '../src/db/schema.ts';
import { createTestDatabase, DIALECTS } from './support/databases.ts';
import { fileRow, mountRow, storageConfigRow } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`migrations (${dialect})`, () => {
    it("0012: a mount's creator becomes CloudPaste's bare admin id; other creators stay", async () => {
      const database = await createTestDatabase(dialect, '0011-mount-file-shares');
      try {
        const db = database.db.kysely as Kysely<Database>;
        const config = storageConfigRow();
        await db.insertInto('storage_configs').values(config).execute();
        const adminId = randomUUID();
        // A mount as 0011 had it: without the later columns (link policy, 0030).
        const mount = (mount_path: string, created_by: string | null) => {
          const {
            link_policy: _policy,
            custom_host: _host,
            ...row
          } = mountRow({
            storage_config_id: config.id,
            mount_path,
            created_by,
          });
          return row as MountsTable;
        };
        await db
          .insertInto('mounts')
          .values([
            mount('/by-admin', `admin:${adminId}`),
            mount('/by-key', 'apikey:k1'),
            mount('/by-system', null),
          ])
          .execute();

        await migrate(database.db);

        const rows = await db
          .selectFrom('mounts')
          .select(['mount_path', 'created_by'])
          .orderBy('mount_path')
          .execute();
        assert.deepEqual(rows, [
          { mount_path: '/by-admin', created_by: adminId },
          { mount_path: '/by-key', created_by: 'apikey:k1' },
          { mount_path: '/by-system', created_by: null },
        ]);
      } finally {
        await database.destroy();
      }
    });

    it('0013: old file shares get their source from their storage key (every page of them)', async () => {
      const database = await createTestDatabase(dialect, '0012-mount-creators');
      try {
        // The schema as version 0012 left it: no source column yet.
        const db = database.db.kysely as unknown as Kysely<
          Omit<Database, 'files'> & { files: Omit<FilesTable, 'source' | 'owner_id' | 'revoked_at'> }
        >;
        const config = storageConfigRow();
        await db.insertInto('storage_configs').values(config).execute();
        const row = (slug: string, storage_path: string, keep_object = 0) => {
          const {
            source: _none,
            owner_id: _later,
            revoked_at: _later0026,
            ...fields
          } = fileRow({
            storage_config_id: config.id,
            slug,
            storage_path,
            keep_object,
          });
          return fields;
        };
        const expected: Record<string, string> = {
          page: 'share', // the upload page's key: <folder>/<yyyy>/<mm>/<id>-<name>
          'page-root': 'share',
          'page-own-folder': 'share', // upload-direct with original_filename: …/<id>/<name>
          explorer: 'share', // the explorer's "Share…" of a mount file
          mount: 'mount_upload',
          'mount-dated': 'mount_upload', // a mount folder named like a date, a name without an id
          'M-abcde': 'mount_upload', // CloudPaste's mount-upload slug
        };
        await db
          .insertInto('files')
          .values([
            row('page', '/shares/2026/01/abcdefghijkl-report.pdf'),
            row('page-root', '/2025/12/0123456789ab-a b.txt'),
            row('page-own-folder', '/in/2026/02/zyxwvutsrqpo/report.pdf'),
            row('explorer', '/docs/report.pdf', 1),
            row('mount', '/docs/report.pdf'),
            row('mount-dated', '/2024/05/photo.jpg'),
            row('M-abcde', '/x/2026/01/abcdefghijkl-a.txt'),
          ])
          .execute();
        // More than a page of the migration's reads.
        const many = Array.from({ length: 1100 }, (_, i) => row(`bulk-${i}`, `/bulk/${i}.txt`));
        for (let i = 0; i < many.length; i += 250) {
          await db
            .insertInto('files')
            .values(many.slice(i, i + 250))
            .execute();
        }

        await migrate(database.db);

        const rows = await database.db.kysely
          .selectFrom('files')
          .select(['slug', 'source', 'keep_object'])
          .execute();
        // A mount upload's file belongs to the mount from now on: deleting its share keeps it.
        const bySlug = new Map(
          rows.map((r) => [
            r.slug,
            r.source === 'mount_upload' && r.keep_object !== 1 ? 'object lost' : r.source,
          ]),
        );
        assert.deepEqual(
          Object.fromEntries(Object.keys(expected).map((slug) => [slug, bySlug.get(slug)])),
          expected,
        );
        assert.equal(
          rows.filter((r) => r.slug.startsWith('bulk-') && r.source === 'mount_upload').length,
          1100,
        );
      } finally {
        await database.destroy();
      }
    });

    it('0015: the admins become users with the admin role; sessions, keys and shares keep working and get their owner', async () => {
      const database = await createTestDatabase(dialect, '0014-storage-usage');
      try {
        // The schema as version 0014 left it (no users yet: admins and admin_sessions).
        const db = database.db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
        const now = new Date().toISOString();
        const later = new Date(Date.now() + 3600_000).toISOString();
        await db
          .insertInto('admins')
          .values([
            { id: 'first', username: 'owner', password_hash: 'hash-1', created_at: now, updated_at: now },
            {
              id: 'second',
              username: 'helper',
              password_hash: 'hash-2',
              created_at: later,
              updated_at: later,
            },
          ])
          .execute();
        await db
          .insertInto('admin_sessions')
          .values({
            id: 's1',
            admin_id: 'second',
            token_hash: 'token-hash',
            created_at: now,
            expires_at: later,
          })
          .execute();
        await db
          .insertInto('api_keys')
          .values({
            id: 'k1',
            name: 'script',
            key_hash: 'key-hash',
            key_prefix: 'abcd',
            text_permission: 1,
            file_permission: 0,
            mount_permission: 1,
            basic_path: '/team',
            created_at: now,
            expires_at: later,
            last_used: null,
          })
          .execute();
        await db
          .insertInto('pastes')
          .values({
            id: 'p1',
            slug: 'hello',
            content: 'hi',
            format: 'text',
            remark: null,
            password_hash: null,
            expires_at: null,
            max_views: 0,
            views: 0,
            created_by: 'apikey:k1',
            created_at: now,
            updated_at: now,
          })
          .execute();

        await migrate(database.db);

        const migrated = database.db.kysely as Kysely<Database>;
        const users = await migrated
          .selectFrom('users')
          .select(['id', 'username', 'password_hash', 'role', 'status'])
          .orderBy('created_at')
          .execute();
        assert.deepEqual(users, [
          { id: 'first', username: 'owner', password_hash: 'hash-1', role: 'admin', status: 'active' },
          { id: 'second', username: 'helper', password_hash: 'hash-2', role: 'admin', status: 'active' },
        ]);
        // The signed-in admin stays signed in.
        const session = await new SessionsRepository(migrated).findBySession('token-hash', now);
        assert.equal(session?.user.id, 'second');
        // What existed belonged to the only people there were: the first admin.
        const key = await migrated
          .selectFrom('api_keys')
          .select(['owner_id', 'basic_path'])
          .executeTakeFirstOrThrow();
        assert.deepEqual(key, { owner_id: 'first', basic_path: '/team' });
        const paste = await migrated
          .selectFrom('pastes')
          .select(['owner_id', 'created_by'])
          .executeTakeFirstOrThrow();
        assert.deepEqual(paste, { owner_id: 'first', created_by: 'apikey:k1' });
      } finally {
        await database.destroy();
      }
    });
  });
}
