/**
 * Who may call what (docs/accounts.md), over every documented route × every kind of caller: a
 * member, an API key (with every permission), an app password and a guest. Each route's guard is
 * read from its own doc (`auth`), so a route added later joins the matrix by being written. The
 * admin may call everything and is not probed here (its routes have their own tests).
 *
 * An answer counts as "let in" unless it is 401, or 403 with one of the guard's own messages (a 403
 * about a path, say, comes after the guard let the caller in).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiOperations } from '../src/http/openapi.ts';
import { translate } from '../src/errors/messages.ts';
import { DIALECTS } from './support/databases.ts';
import { apiKey, basic, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const GUARD_MESSAGES = new Set(
  (['auth.admin_required', 'auth.admin_token_required', 'auth.apikey_required'] as const).map((key) =>
    translate(key, 'zh'),
  ),
);

type Caller = 'member' | 'key' | 'app password' | 'guest';

/** What each guard lets each caller do: true = let in, false = refused by the guard. */
const EXPECTED: Record<string, Record<Caller, boolean>> = {
  none: { member: true, key: true, 'app password': true, guest: true },
  admin: { member: false, key: false, 'app password': false, guest: false },
  user: { member: true, key: false, 'app password': false, guest: false },
  text: { member: true, key: true, 'app password': false, guest: false },
  file: { member: true, key: true, 'app password': false, guest: false },
  mount: { member: true, key: true, 'app password': false, guest: false },
  principal: { member: true, key: true, 'app password': false, guest: false },
};

/**
 * CloudPaste's two credential checks guard themselves (a key asking whether it is an admin token
 * gets 403, not 401, so its holder stays signed in): their docs say `none` and `principal`.
 */
const OWN_GUARDS: Record<string, Record<Caller, boolean>> = {
  'GET /api/test/admin-token': EXPECTED.admin!,
  'GET /api/test/api-key': { member: false, key: true, 'app password': false, guest: false },
};

for (const dialect of DIALECTS) {
  describe(`every route × every caller (${dialect})`, () => {
    let t: TestApp;
    const headers: Record<Caller, Record<string, string>> = {
      member: {},
      key: {},
      'app password': {},
      guest: {},
    };

    before(async () => {
      t = await createTestApp(dialect);
      const admin = bearer(await t.adminToken());
      const made = await t.json('/api/admin/users', {
        method: 'POST',
        headers: admin,
        json: { username: 'matrix', password: 'matrix password' },
      });
      assert.equal(made.status, 201);
      const login = await t.json('/api/admin/login', {
        method: 'POST',
        json: { username: 'matrix', password: 'matrix password' },
      });
      headers.member = bearer(login.body.data.token);
      headers.key = apiKey(
        (
          await t.createKey({
            name: 'everything',
            text_permission: true,
            file_permission: true,
            mount_permission: true,
          })
        ).key,
      );
      const app = await t.json('/api/auth/app-passwords', {
        method: 'POST',
        headers: headers.member,
        json: { name: 'matrix' },
      });
      headers['app password'] = basic('matrix', app.body.data.password);
    });
    after(() => t.close());

    it('each caller is let in exactly where the route says', async () => {
      const operations = apiOperations(t.routes).filter(
        (op) => op.doc && op.method !== 'HEAD' && !op.path.startsWith('/api/storage/local/'),
      );
      assert.ok(operations.length > 100, `only ${operations.length} operations`);
      const wrong: string[] = [];
      // Ending one's sessions would sign the member out before the routes after it.
      const skip = new Set(['DELETE /api/auth/sessions', 'POST /api/admin/logout']);
      for (const op of operations) {
        if (skip.has(`${op.method} ${op.path}`)) continue;
        const expected = OWN_GUARDS[`${op.method} ${op.path}`] ?? EXPECTED[op.doc!.auth];
        assert.ok(expected, `${op.path}: unknown auth ${op.doc!.auth}`);
        const url = op.path.replace(/:(\w+)(\{[^}]*\})?/g, 'no-such-id');
        for (const caller of Object.keys(headers) as Caller[]) {
          const res = await t.request(url, {
            method: op.method,
            headers: { ...headers[caller], 'Content-Type': 'application/json' },
            ...(op.method === 'GET' ? {} : { body: '{}' }),
          });
          const text = await res.text();
          let message = '';
          try {
            message = (JSON.parse(text) as { message?: string }).message ?? '';
          } catch {
            // Not JSON: no guard answered it.
          }
          const refused = res.status === 401 || (res.status === 403 && GUARD_MESSAGES.has(message));
          if (refused === expected[caller]) {
            wrong.push(`${op.method} ${op.path} (${op.doc!.auth}) ${caller} → ${res.status} ${message}`);
          }
        }
      }
      assert.deepEqual(wrong, []);
      // The member is still signed in: nothing above ended the session the matrix used.
      assert.equal((await t.json('/api/auth/me', { headers: headers.member })).status, 200);
    });
  });
}
