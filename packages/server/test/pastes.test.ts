/** Text shares over HTTP: create, read, raw, passwords, view limits, expiry and management. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`text shares (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let writer: { id: string; key: string };
    let other: { id: string; key: string };
    let fileOnly: { id: string; key: string };
    before(async () => {
      t = await createTestApp(dialect, { TRUST_PROXY: '1' });
      admin = bearer(await t.adminToken());
      writer = await t.createKey({ name: 'writer', text_permission: true });
      other = await t.createKey({ name: 'other-writer', text_permission: true });
      fileOnly = await t.createKey({ name: 'file-only', file_permission: true });
    });
    after(() => t.close());

    const create = (body: Record<string, unknown>, headers: Record<string, string> = admin) =>
      t.json('/api/paste', { method: 'POST', headers, json: body });
    const view = (slug: string, ip = '198.51.100.1') =>
      t.json(`/api/paste/${slug}`, { headers: { 'X-Forwarded-For': ip } });
    const unlock = (slug: string, password: unknown, ip = '198.51.100.1') =>
      t.json(`/api/paste/${slug}`, {
        method: 'POST',
        json: { password },
        headers: { 'X-Forwarded-For': ip },
      });
    const freshAdmin = async () => {
      admin = bearer(await t.adminToken());
    };

    describe('POST /api/paste', () => {
      it('needs credentials with the text permission', async () => {
        const anon = await t.json('/api/paste', { method: 'POST', json: { content: 'x' } });
        assert.equal(anon.status, 401);
        const noText = await create({ content: 'x' }, apiKey(fileOnly.key));
        assert.equal(noText.status, 403);
        assert.equal(noText.body.error, 'FORBIDDEN');
      });

      it('creates with a short random slug and records the creator', async () => {
        const byAdmin = await create({ content: '# Hello' });
        assert.equal(byAdmin.status, 201);
        assert.match(byAdmin.body.data.slug, /^[A-Za-z0-9]{6}$/);
        assert.equal(
          byAdmin.body.slug,
          byAdmin.body.data.slug,
          'also at the top level for CloudPaste clients',
        );
        const byKey = await create({ content: 'from a key', format: 'text' }, apiKey(writer.key));
        assert.equal(byKey.status, 201);
        const rows = await t.database.db.kysely
          .selectFrom('pastes')
          .select(['slug', 'created_by', 'format'])
          .execute();
        const keyRow = rows.find((r) => r.slug === byKey.body.data.slug)!;
        assert.equal(keyRow.created_by, `apikey:${writer.id}`);
        assert.equal(keyRow.format, 'text');
        assert.ok(!rows.find((r) => r.slug === byAdmin.body.data.slug)!.created_by!.startsWith('apikey:'));
      });

      it('takes a custom slug and refuses a taken one with 409', async () => {
        const first = await create({ content: 'a', slug: 'my-note_1' });
        assert.equal(first.status, 201);
        assert.equal(first.body.data.slug, 'my-note_1');
        const again = await create({ content: 'b', slug: 'my-note_1' });
        assert.equal(again.status, 409);
        assert.equal(again.body.error, 'CONFLICT');
        assert.match(again.body.message, /链接后缀已被占用/);
      });

      it('validates content, slug, max views and expiry', async () => {
        const cases: Array<[Record<string, unknown>, string]> = [
          [{ content: '' }, 'content'],
          [{ content: '   \n ' }, 'content'],
          [{}, 'content'],
          [{ content: 'x', slug: 'has space' }, 'slug'],
          [{ content: 'x', slug: 'a'.repeat(51) }, 'slug'],
          [{ content: 'x', slug: 'Admin' }, 'slug'],
          [{ content: 'x', slug: '../etc' }, 'slug'],
          [{ content: 'x', maxViews: -1 }, 'maxViews'],
          [{ content: 'x', maxViews: 1.5 }, 'maxViews'],
          [{ content: 'x', expiresAt: 'next week' }, 'expiresAt'],
          [{ content: 'x', expiresAt: '2000-01-01T00:00:00Z' }, 'expiresAt'],
        ];
        for (const [body, field] of cases) {
          const res = await create(body);
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.ok(res.body.details?.[field], `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
        }
        const english = await t.json('/api/paste', {
          method: 'POST',
          headers: { ...admin, 'X-Cubby-Lang': 'en' },
          json: { content: 'x', slug: 'bad slug!' },
        });
        assert.match(english.body.message, /letters, digits/);
      });

      it('refuses content over 5 MiB with 413 and accepts up to it', async () => {
        const big = await create({ content: 'x'.repeat(5 * 1024 * 1024 + 1) });
        assert.equal(big.status, 413);
        assert.equal(big.body.error, 'PAYLOAD_TOO_LARGE');
        const chinese = '中'.repeat(1024 * 1024); // 3 MiB of UTF-8
        const fits = await create({ content: chinese });
        assert.equal(fits.status, 201);
        assert.equal((await view(fits.body.data.slug)).body.data.content, chinese);
      });
    });

    describe('reading', () => {
      it('GET /api/paste/:slug answers content and counts the view', async () => {
        const { body } = await create({ content: 'hello **world**', remark: 'note', maxViews: 3 });
        const res = await view(body.data.slug);
        assert.equal(res.status, 200);
        assert.equal(res.body.data.content, 'hello **world**');
        assert.equal(res.body.data.remark, 'note');
        assert.equal(res.body.data.views, 1);
        assert.equal(res.body.data.remainingViews, 2);
        assert.equal(res.body.content, 'hello **world**', 'top level too');
        assert.equal((await view('nope-not-here')).status, 404);
      });

      it('HEAD counts nothing', async () => {
        const { body } = await create({ content: 'peek', maxViews: 1 });
        for (const path of [`/api/paste/${body.data.slug}`, `/api/raw/${body.data.slug}`]) {
          assert.equal((await t.request(path, { method: 'HEAD' })).status, 200);
        }
        assert.equal((await view(body.data.slug)).body.data.views, 1);
      });

      it('gives the content to exactly maxViews readers, then answers 410 once and forgets it', async () => {
        const { body } = await create({ content: 'twice', maxViews: 2 });
        const slug = body.data.slug;
        assert.equal((await view(slug)).body.data.content, 'twice');
        const last = await view(slug);
        assert.equal(last.body.data.content, 'twice');
        assert.equal(last.body.data.remainingViews, 0);
        const row = await t.database.db.kysely
          .selectFrom('pastes')
          .selectAll()
          .where('slug', '=', slug)
          .executeTakeFirst();
        assert.equal(row?.content, '', 'the text is erased on the last view');
        const usedUp = await view(slug);
        assert.equal(usedUp.status, 410);
        assert.equal(usedUp.body.error, 'GONE');
        assert.match(usedUp.body.message, /最大查看次数/);
        assert.equal((await view(slug)).status, 404);
      });

      it('answers 410 for an expired paste and deletes it', async () => {
        const expiresAt = new Date(t.clock.now().getTime() + 3600_000).toISOString();
        const { body } = await create({ content: 'soon gone', expiresAt });
        assert.equal((await view(body.data.slug)).status, 200);
        t.clock.advance(3600_000);
        const expired = await view(body.data.slug);
        assert.equal(expired.status, 410);
        assert.match(expired.body.message, /已过期/);
        assert.equal((await view(body.data.slug)).status, 404);
        await freshAdmin();
      });

      for (const [label, path] of [
        ['GET /api/paste/:slug', (s: string) => `/api/paste/${s}`],
        ['GET /api/raw/:slug', (s: string) => `/api/raw/${s}`],
      ] as const) {
        it(`${label}: 300 concurrent readers, maxViews 7 → exactly 7 get the content`, async () => {
          const { body } = await create({ content: 'race me', maxViews: 7 });
          const results = await Promise.all(
            Array.from({ length: 300 }, () =>
              t.request(path(body.data.slug)).then(async (r) => [r.status, await r.text()] as const),
            ),
          );
          const winners = results.filter(([status, text]) => status === 200 && text.includes('race me'));
          assert.equal(winners.length, 7);
          assert.ok(results.every(([status]) => status === 200 || status === 410 || status === 404));
        });
      }
    });

    describe('passwords', () => {
      it('hides the content of a protected paste until the right password; stores only a hash', async () => {
        const { body } = await create({ content: 'secret text', password: 'open-sesame', maxViews: 5 });
        const slug = body.data.slug;
        assert.equal(body.data.hasPassword, true);
        const meta = await view(slug);
        assert.equal(meta.status, 200);
        assert.equal(meta.body.data.requiresPassword, true);
        assert.equal(meta.body.data.content, undefined);
        assert.equal(meta.body.data.views, 0, 'metadata counts nothing');
        const wrong = await unlock(slug, 'guess');
        assert.equal(wrong.status, 401);
        assert.equal(wrong.body.message, '密码错误');
        assert.equal((await unlock(slug, '')).status, 400);
        const right = await unlock(slug, 'open-sesame');
        assert.equal(right.status, 200);
        assert.equal(right.body.data.content, 'secret text');
        assert.equal(right.body.data.views, 1);
        assert.ok(!JSON.stringify(right.body).includes('open-sesame'));
        const row = await t.database.db.kysely
          .selectFrom('pastes')
          .selectAll()
          .where('slug', '=', slug)
          .executeTakeFirstOrThrow();
        assert.match(row.password_hash!, /^\$argon2id\$/);
        const detail = await t.json(`/api/admin/pastes/${slug}`, { headers: admin });
        assert.ok(!JSON.stringify(detail.body).includes('open-sesame'));
        assert.ok(!JSON.stringify(detail.body).includes('argon2'));
      });

      it('limits guesses to 5 a minute per paste and address, with Retry-After', async () => {
        const { body } = await create({ content: 'guarded', password: 'right-one' });
        for (let i = 0; i < 5; i++) {
          assert.equal((await unlock(body.data.slug, `wrong-${i}`, '203.0.113.1')).status, 401);
        }
        const blocked = await unlock(body.data.slug, 'right-one', '203.0.113.1');
        assert.equal(blocked.status, 429);
        assert.ok(Number(blocked.res.headers.get('retry-after')) > 0);
        assert.equal(
          (await unlock(body.data.slug, 'right-one', '203.0.113.2')).status,
          200,
          'a stranger guessing does not lock the password form for others',
        );
        t.clock.advance(61_000);
        assert.equal((await unlock(body.data.slug, 'right-one', '203.0.113.1')).status, 200);
      });

      it('limits guesses per client address to 20 a minute across pastes', async () => {
        const slugs = [];
        for (let i = 0; i < 5; i++)
          slugs.push((await create({ content: `p${i}`, password: 'pw-x' })).body.data.slug);
        for (let i = 0; i < 20; i++) {
          assert.equal((await unlock(slugs[i % 4], 'nope', '192.0.2.9')).status, 401);
        }
        assert.equal((await unlock(slugs[4], 'pw-x', '192.0.2.9')).status, 429);
        t.clock.advance(61_000);
        await freshAdmin();
      });

      it('evaluates exactly 5 of 200 simultaneous guesses from one address; the rest are 429', async () => {
        const { body } = await create({ content: 'guarded', password: 'right-one' });
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) => unlock(body.data.slug, `wrong-${i}`, '192.0.2.200')),
        );
        const statuses = answers.map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 429).length, 195);
        for (const a of answers.filter((a) => a.status === 429)) {
          assert.ok(Number(a.res.headers.get('retry-after')) > 0);
        }
      });

      it('does not count the right password', async () => {
        const { body } = await create({ content: 'guarded', password: 'right-one' });
        for (let i = 0; i < 10; i++) {
          assert.equal((await unlock(body.data.slug, 'right-one', '192.0.2.201')).status, 200);
        }
        for (let i = 0; i < 5; i++) {
          assert.equal((await unlock(body.data.slug, 'wrong', '192.0.2.201')).status, 401, `guess ${i}`);
        }
        assert.equal((await unlock(body.data.slug, 'wrong', '192.0.2.201')).status, 429);
      });

      it('bounds a paste at 100 evaluated guesses a minute from all addresses, with one log warning', async () => {
        const { body } = await create({ content: 'guarded', password: 'right-one' });
        const before = t.logLines.length;
        // 40 addresses × 5 simultaneous guesses: 200 tries, of which exactly 100 are evaluated.
        const statuses = (
          await Promise.all(
            Array.from({ length: 200 }, (_, i) =>
              unlock(body.data.slug, `botnet-${i}`, `198.19.1.${(i % 40) + 1}`),
            ),
          )
        ).map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 401).length, 100, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 429).length, 100);
        assert.equal((await unlock(body.data.slug, 'right-one', '203.0.113.250')).status, 429);
        const warnings = t.logLines
          .slice(before)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((entry) => entry.level === 40);
        assert.equal(warnings.length, 1, JSON.stringify(warnings));
        assert.match(String(warnings[0]!.share), /^paste:/);
        assert.ok(!t.logLines.slice(before).join('\n').includes('botnet-'), 'no password is logged');
        t.clock.advance(61_000);
        assert.equal((await unlock(body.data.slug, 'right-one', '203.0.113.250')).status, 200);
        await freshAdmin();
      });
    });

    describe('GET /api/raw/:slug', () => {
      it('answers plain text, nosniff, and counts the view', async () => {
        const { body } = await create({ content: '<script>alert(1)</script>', maxViews: 2 });
        const res = await t.request(`/api/raw/${body.data.slug}`);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
        assert.equal(await res.text(), '<script>alert(1)</script>');
        assert.equal((await view(body.data.slug)).body.data.views, 2);
      });

      it('takes the password from the query string and never logs it', async () => {
        const { body } = await create({ content: 'raw secret', password: 'query-pass-123' });
        const none = await t.request(`/api/raw/${body.data.slug}`);
        assert.equal(none.status, 401);
        assert.match(none.headers.get('content-type') ?? '', /text\/plain/);
        const wrong = await t.request(`/api/raw/${body.data.slug}?password=nope`, {
          headers: { 'X-Forwarded-For': '198.51.100.200' },
        });
        assert.equal(wrong.status, 401);
        const right = await t.request(`/api/raw/${body.data.slug}?password=query-pass-123`);
        assert.equal(right.status, 200);
        assert.equal(await right.text(), 'raw secret');
        assert.ok(!t.logLines.join('\n').includes('query-pass-123'));
      });
    });

    describe('management', () => {
      const adminPaths: Array<[string, string]> = [
        ['GET', '/api/admin/pastes'],
        ['GET', '/api/admin/pastes/x'],
        ['PUT', '/api/admin/pastes/x'],
        ['DELETE', '/api/admin/pastes/x'],
        ['POST', '/api/admin/pastes/batch-delete'],
        ['POST', '/api/admin/pastes/clear-expired'],
      ];
      const userPaths: Array<[string, string]> = [
        ['GET', '/api/user/pastes'],
        ['GET', '/api/user/pastes/x'],
        ['PUT', '/api/user/pastes/x'],
        ['DELETE', '/api/user/pastes/x'],
        ['POST', '/api/user/pastes/batch-delete'],
      ];
      const body = (m: string) => (m === 'GET' || m === 'DELETE' ? undefined : { ids: ['x'] });

      it('401 without credentials; 403 for keys on admin routes and for keys without text on user routes', async () => {
        for (const [method, path] of [...adminPaths, ...userPaths]) {
          assert.equal((await t.json(path, { method, json: body(method) })).status, 401, `${method} ${path}`);
        }
        for (const [method, path] of adminPaths) {
          const res = await t.json(path, { method, headers: apiKey(writer.key), json: body(method) });
          assert.equal(res.status, 403, `${method} ${path}`);
        }
        for (const [method, path] of userPaths) {
          const res = await t.json(path, { method, headers: apiKey(fileOnly.key), json: body(method) });
          assert.equal(res.status, 403, `${method} ${path}`);
        }
      });

      it('lists with pages of 10 by default, newest first, with top-level pagination and search', async () => {
        const tag = `list-${Date.now()}`;
        for (let i = 0; i < 12; i++) {
          t.clock.advance(1000);
          await create({ content: `${tag} item ${i}`, remark: i === 3 ? 'Special 50% Remark' : null });
        }
        const page1 = await t.json(`/api/admin/pastes?search=${tag}`, { headers: admin });
        assert.equal(page1.status, 200);
        assert.equal(page1.body.data.length, 10);
        assert.equal(page1.body.pagination.total, 12);
        assert.equal(page1.body.pagination.totalPages, 2);
        assert.equal(page1.body.data[0].content_preview, `${tag} item 11`);
        const page2 = await t.json(`/api/admin/pastes?search=${tag}&page=2`, { headers: admin });
        assert.equal(page2.body.data.length, 2);
        const byRemark = await t.json(`/api/admin/pastes?search=${encodeURIComponent('special 50%')}`, {
          headers: admin,
        });
        assert.equal(byRemark.body.data.length, 1);
        assert.equal(byRemark.body.data[0].remark, 'Special 50% Remark');
        const noWildcard = await t.json(`/api/admin/pastes?search=${encodeURIComponent('special 5_%')}`, {
          headers: admin,
        });
        assert.equal(noWildcard.body.data.length, 0, '_ and % are literal');
        const bad = await t.json('/api/admin/pastes?limit=0', { headers: admin });
        assert.equal(bad.status, 400);
      });

      it('shows the key name of pastes created by keys', async () => {
        const { body } = await create({ content: 'named', remark: 'by-writer-key' }, apiKey(writer.key));
        const list = await t.json('/api/admin/pastes?search=by-writer-key', { headers: admin });
        assert.equal(list.body.data[0].key_name, 'writer');
        assert.equal(list.body.data[0].slug, body.data.slug);
      });

      it('an edit keeps what it does not send, and can set, change and clear the password and the slug', async () => {
        const { body } = await create({
          content: 'original',
          remark: 'keep me',
          maxViews: 9,
          slug: 'edit-me',
        });
        const put = (id: string, json: Record<string, unknown>) =>
          t.json(`/api/admin/pastes/${id}`, { method: 'PUT', headers: admin, json });
        const r1 = await put(body.data.id, { content: 'changed' });
        assert.equal(r1.status, 200);
        assert.equal(r1.body.data.content, 'changed');
        assert.equal(r1.body.data.remark, 'keep me');
        assert.equal(r1.body.data.max_views, 9);
        assert.equal((await put('edit-me', { password: 'pw-one' })).body.data.has_password, true);
        assert.equal((await unlock('edit-me', 'pw-one', '198.51.100.77')).status, 200);
        await put('edit-me', { password: 'pw-two' });
        assert.equal((await unlock('edit-me', 'pw-one', '198.51.100.77')).status, 401);
        assert.equal((await put('edit-me', { clearPassword: true })).body.data.has_password, false);
        assert.equal((await view('edit-me')).body.data.content, 'changed');
        await create({ content: 'taken', slug: 'taken-slug' });
        assert.equal((await put(body.data.id, { newSlug: 'taken-slug' })).status, 409);
        const renamed = await put(body.data.id, { newSlug: 'edited' });
        assert.equal(renamed.body.data.slug, 'edited');
        assert.equal((await view('edit-me')).status, 404);
        const random = await put(body.data.id, { newSlug: '' });
        assert.match(random.body.data.slug, /^[A-Za-z0-9]{6}$/);
        const cleared = await put(body.data.id, { remark: null, expiresAt: null, maxViews: 0 });
        assert.equal(cleared.body.data.remark, null);
        assert.equal(cleared.body.data.max_views, 0);
        assert.equal((await put(body.data.id, { content: '' })).status, 400);
        assert.equal((await put('no-such-paste', { content: 'x' })).status, 404);
      });

      it('restarts the count when a new limit is one the paste has already reached', async () => {
        const { body } = await create({ content: 'counted', maxViews: 10 });
        for (let i = 0; i < 3; i++) await view(body.data.slug);
        const res = await t.json(`/api/admin/pastes/${body.data.id}`, {
          method: 'PUT',
          headers: admin,
          json: { maxViews: 2 },
        });
        assert.equal(res.body.data.views, 0);
        assert.equal((await view(body.data.slug)).status, 200);
      });

      it('deletes one, a batch, and clears expired and used-up pastes', async () => {
        const a = (await create({ content: 'a' })).body.data;
        const b = (await create({ content: 'b' })).body.data;
        const c = (await create({ content: 'c' })).body.data;
        assert.equal(
          (await t.json(`/api/admin/pastes/${a.id}`, { method: 'DELETE', headers: admin })).status,
          200,
        );
        assert.equal((await view(a.slug)).status, 404);
        assert.equal(
          (await t.json(`/api/admin/pastes/${a.id}`, { method: 'DELETE', headers: admin })).status,
          404,
        );
        const batch = await t.json('/api/admin/pastes/batch-delete', {
          method: 'POST',
          headers: admin,
          json: { ids: [b.id, c.id, 'missing'] },
        });
        assert.equal(batch.body.data.count, 2);
        assert.equal(
          (
            await t.json('/api/admin/pastes/batch-delete', {
              method: 'POST',
              headers: admin,
              json: { ids: [] },
            })
          ).status,
          400,
        );

        await t.services.pastes.purge();
        const soon = new Date(t.clock.now().getTime() + 1000).toISOString();
        await create({ content: 'expiring', expiresAt: soon });
        const once = (await create({ content: 'once', maxViews: 1 })).body.data;
        await view(once.slug);
        await create({ content: 'stays' });
        t.clock.advance(2000);
        const cleared = await t.json('/api/admin/pastes/clear-expired', {
          method: 'POST',
          headers: admin,
          json: { clearExpired: true },
        });
        assert.equal(cleared.status, 200);
        assert.equal(cleared.body.data.count, 2);
        assert.match(cleared.body.message, /2/);
      });

      it('a key sees and manages only its own pastes; another key’s are never touched', async () => {
        const mine = (await create({ content: 'mine', remark: 'owner-test' }, apiKey(writer.key))).body.data;
        const theirs = (await create({ content: 'theirs', remark: 'owner-test' }, apiKey(other.key))).body
          .data;
        await create({ content: 'admins', remark: 'owner-test' });
        const list = await t.json('/api/user/pastes?search=owner-test', { headers: apiKey(writer.key) });
        assert.deepEqual(
          list.body.data.map((p: { id: string }) => p.id),
          [mine.id],
        );
        assert.equal(list.body.pagination.total, 1);
        assert.equal(list.body.pagination.hasMore, false);
        const asKey = apiKey(writer.key);
        assert.equal((await t.json(`/api/user/pastes/${theirs.id}`, { headers: asKey })).status, 404);
        assert.equal(
          (
            await t.json(`/api/user/pastes/${theirs.id}`, {
              method: 'PUT',
              headers: asKey,
              json: { content: 'x' },
            })
          ).status,
          404,
        );
        assert.equal(
          (await t.json(`/api/user/pastes/${theirs.id}`, { method: 'DELETE', headers: asKey })).status,
          404,
        );
        const batch = await t.json('/api/user/pastes/batch-delete', {
          method: 'POST',
          headers: asKey,
          json: { ids: [mine.id, theirs.id] },
        });
        assert.equal(batch.body.data.count, 1);
        assert.equal((await view(theirs.slug)).body.data.content, 'theirs');
        assert.equal((await view(mine.slug)).status, 404);
        const edited = (await create({ content: 'v1' }, asKey)).body.data;
        const put = await t.json(`/api/user/pastes/${edited.id}`, {
          method: 'PUT',
          headers: asKey,
          json: { content: 'v2' },
        });
        assert.equal(put.body.data.content, 'v2');
        assert.equal(
          (await t.json(`/api/user/pastes/${edited.slug}`, { headers: asKey })).body.data.content,
          'v2',
        );
      });

      it('management reads count no view', async () => {
        const { body } = await create({ content: 'counted?', maxViews: 1 });
        await t.json(`/api/admin/pastes/${body.data.id}`, { headers: admin });
        await t.json(`/api/admin/pastes?search=counted`, { headers: admin });
        assert.equal((await view(body.data.slug)).body.data.content, 'counted?');
      });
    });
  });
}
