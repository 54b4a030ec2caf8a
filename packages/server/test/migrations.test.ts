/**
 * The data steps of migrations, on both databases: rows written by an earlier version are brought
 * into the current form (a database is migrated up to the migration before, seeded, then migrated on).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { migrate } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';
import { createTestDatabase, DIALECTS } from './support/databases.ts';
import { mountRow, storageConfigRow } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`migrations (${dialect})`, () => {
    it("0012: a mount's creator becomes CloudPaste's bare admin id; other creators stay", async () => {
      const database = await createTestDatabase(dialect, '0011-mount-file-shares');
      try {
        const db = database.db.kysely as Kysely<Database>;
        const config = storageConfigRow();
        await db.insertInto('storage_configs').values(config).execute();
        const adminId = randomUUID();
        const mount = (mount_path: string, created_by: string | null) =>
          mountRow({ storage_config_id: config.id, mount_path, created_by });
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
  });
}
