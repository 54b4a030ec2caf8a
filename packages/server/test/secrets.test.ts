/**
 * No password, token or key is stored or logged in plain text: a session that logs in, changes the
 * password and creates and uses keys leaves none of them in the database or the log.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { DIALECTS } from './support/databases.ts';
import { ADMIN, apiKey, bearer, createTestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`secrets at rest and in logs (${dialect})`, () => {
    it('keeps passwords, tokens and keys out of the database and the log', async () => {
      const t = await createTestApp(dialect);
      try {
        const secrets: string[] = [ADMIN.password];
        const token = await t.adminToken();
        secrets.push(token);
        const newPassword = 'rotated-password-77';
        secrets.push(newPassword);
        await t.json('/api/admin/change-password', {
          method: 'POST',
          headers: bearer(token),
          json: { currentPassword: ADMIN.password, newPassword },
        });
        const login = await t.json('/api/admin/login', {
          method: 'POST',
          json: { username: ADMIN.username, password: newPassword },
        });
        const token2 = login.body.data.token as string;
        secrets.push(token2);
        const created = await t.json('/api/admin/api-keys', {
          method: 'POST',
          headers: bearer(token2),
          json: { name: 'generated', text_permission: true },
        });
        secrets.push(created.body.data.key);
        const custom = 'Custom_Key-For-Secrets-Test';
        secrets.push(custom);
        await t.json('/api/admin/api-keys', {
          method: 'POST',
          headers: bearer(token2),
          json: { name: 'custom', custom_key: custom, file_permission: true },
        });
        for (const key of [created.body.data.key, custom]) {
          assert.equal((await t.json('/api/test/api-key', { headers: apiKey(key) })).status, 200);
        }
        await t.json('/api/admin/login', {
          method: 'POST',
          json: { username: 'admin', password: 'wrong-guess-1' },
        });
        secrets.push('wrong-guess-1');

        let stored: string;
        if (dialect === 'sqlite') {
          await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.database.db.kysely);
          stored = fs
            .readdirSync(t.database.dataDir)
            .filter((f) => f.startsWith('cubby.db'))
            .map((f) => fs.readFileSync(path.join(t.database.dataDir, f)).toString('latin1'))
            .join('\n');
        } else {
          const parts: string[] = [];
          for (const table of [
            'users',
            'sessions',
            'api_keys',
            'settings',
            'pastes',
            'app_passwords',
            'invites',
          ] as const) {
            parts.push(JSON.stringify(await t.database.db.kysely.selectFrom(table).selectAll().execute()));
          }
          stored = parts.join('\n');
        }
        assert.ok(stored.includes('generated'), 'sanity: the dump holds the key names');
        const log = t.logLines.join('\n');
        assert.ok(log.includes('/api/admin/login'), 'sanity: the log holds the requests');
        for (const secret of secrets) {
          assert.ok(!stored.includes(secret), `database holds ${secret.slice(0, 4)}…`);
          assert.ok(!log.includes(secret), `log holds ${secret.slice(0, 4)}…`);
        }
      } finally {
        await t.close();
      }
    });
  });
}
