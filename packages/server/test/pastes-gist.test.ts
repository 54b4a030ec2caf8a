/**
 * Gist-like pastes and revoking shares over HTTP (docs/api.md, "Multi-file pastes", "Public
 * pastes", "Revoking a share"): multi-file create, read, raw and edit; the CloudPaste 0.6 answer of a
 * one-text paste unchanged; name and size checks; the public list on and off, never leaking
 * protected, ended or revoked pastes or any text; revoke answering 410 on every public route of
 * pastes and file shares, and a key revoking only its own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PASTE_MAX_BYTES } from '@cubby/shared';
import { DIALECTS } from './support/databases.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const TWO_FILES = [
  { name: 'main.py', language: 'python', content: 'print("hi")\n' },
  { name: 'README.md', language: 'markdown', content: '# Notes\n' },
];

for (const dialect of DIALECTS) {
  describe(`gist-like pastes and revoking (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let writer: { id: string; key: string };
    let other: { id: string; key: string };
    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      writer = await t.createKey({ name: 'gist-writer', text_permission: true, file_permission: true });
      other = await t.createKey({ name: 'gist-other', text_permission: true, file_permission: true });
    });
    after(() => t.close());

    const create = (body: Record<string, unknown>, headers: Record<string, string> = admin) =>
      t.json('/api/paste', { method: 'POST', headers, json: body });
    const setPublicPage = (on: boolean) =>
      t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: { public_pastes_enabled: on },
      });

    it('keeps the CloudPaste 0.6 answer of a one-text paste, plus title and is_public', async () => {
      const made = await create({ content: 'plain text', format: 'text' });
      assert.equal(made.status, 201);
      const read = await t.json(`/api/paste/${made.body.data.slug}`);
      assert.equal(read.status, 200);
      assert.deepEqual(Object.keys(read.body.data).sort(), [
        'content',
        'createdAt',
        'created_by',
        'expiresAt',
        'format',
        'hasPassword',
        'is_public',
        'maxViews',
        'remainingViews',
        'remark',
        'slug',
        'title',
        'updatedAt',
        'views',
      ]);
      assert.equal(read.body.data.content, 'plain text');
      assert.equal(read.body.data.title, null);
      assert.equal(read.body.data.is_public, false);
      const raw = await t.request(`/api/raw/${made.body.data.slug}`);
      assert.equal(await raw.text(), 'plain text');
    });

    it('makes, reads and edits a paste of several named files', async () => {
      const made = await create({ title: 'Two files', files: TWO_FILES }, apiKey(writer.key));
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.data.title, 'Two files');
      const slug = made.body.data.slug as string;

      const read = await t.json(`/api/paste/${slug}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.data.title, 'Two files');
      assert.deepEqual(read.body.data.files, TWO_FILES);
      // Old clients read the first file as the paste's text.
      assert.equal(read.body.data.content, TWO_FILES[0]!.content);
      assert.equal(read.body.data.format, 'text');

      const raw = await t.request(`/api/raw/${slug}?file=README.md`);
      assert.equal(raw.status, 200);
      assert.equal(await raw.text(), '# Notes\n');
      assert.match(raw.headers.get('content-disposition')!, /filename="README\.md"/);
      assert.equal((await t.request(`/api/raw/${slug}?file=nope.txt`)).status, 404);

      const edited = await t.json(`/api/user/pastes/${slug}`, {
        method: 'PUT',
        headers: apiKey(writer.key),
        json: {
          title: 'Three files',
          is_public: true,
          files: [...TWO_FILES, { name: 'b.sql', language: 'sql', content: 'select 1;' }],
        },
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.equal(edited.body.data.file_count, 3);
      assert.equal(edited.body.data.is_public, true);
      const again = await t.json(`/api/paste/${slug}`);
      assert.deepEqual(
        again.body.data.files.map((f: { name: string }) => f.name),
        ['main.py', 'README.md', 'b.sql'],
      );

      // A client that knows only `content` changes the first file and keeps the others.
      await t.json(`/api/user/pastes/${slug}`, {
        method: 'PUT',
        headers: apiKey(writer.key),
        json: { content: 'print("bye")' },
      });
      const third = await t.json(`/api/paste/${slug}`);
      assert.equal(third.body.data.files[0].content, 'print("bye")');
      assert.equal(third.body.data.files.length, 3);
      assert.equal(third.body.data.content, 'print("bye")');
    });

    it('refuses bad names, repeated names, too many files and too much text', async () => {
      const bad = async (files: unknown, field = 'files') => {
        const res = await create({ files });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        return JSON.stringify(res.body).includes(field);
      };
      assert.ok(await bad([{ name: '../etc/passwd', content: 'x' }]));
      assert.ok(await bad([{ name: 'a\nb', content: 'x' }]));
      assert.ok(await bad([{ name: '..', content: 'x' }]));
      assert.ok(
        await bad([
          { name: 'A.txt', content: 'x' },
          { name: 'a.txt', content: 'y' },
        ]),
      );
      assert.ok(await bad(Array.from({ length: 21 }, (_, i) => ({ name: `f${i}`, content: 'x' }))));
      assert.ok(await bad([]));
      assert.ok(await bad([{ name: 'a.txt', language: 'cobol-ish', content: 'x' }]));
      const half = 'x'.repeat(PASTE_MAX_BYTES / 2 + 1);
      const tooBig = await create({
        files: [
          { name: 'a', content: half },
          { name: 'b', content: half },
        ],
      });
      assert.equal(tooBig.status, 413);
      const count = await t.database.db.kysely
        .selectFrom('paste_files')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('name', '=', 'a.txt')
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0, 'nothing refused was stored');
    });

    it('lists public pastes only while the page is on, never their text nor protected or ended ones', async () => {
      assert.equal((await t.json('/api/public/pastes')).status, 404);
      assert.deepEqual((await t.json('/api/public/pastes/status')).body.data, { enabled: false });
      const listed = await create({ title: 'Listed', is_public: true, files: TWO_FILES });
      await create({ title: 'Protected', is_public: true, content: 'secret', password: 'pw' });
      await create({ title: 'Private', content: 'not listed' });
      const ending = await create({ title: 'Ends', is_public: 1, content: 'soon', maxViews: 1 });
      await t.json(`/api/paste/${ending.body.data.slug}`);
      const revoked = await create({ title: 'Revoked', is_public: true, content: 'gone' });
      await t.json(`/api/admin/pastes/${revoked.body.data.id}/revoke`, { method: 'POST', headers: admin });

      assert.equal((await setPublicPage(true)).status, 200);
      assert.deepEqual((await t.json('/api/public/pastes/status')).body.data, { enabled: true });
      const page = await t.json('/api/public/pastes?limit=50');
      assert.equal(page.status, 200);
      const titles = page.body.data.map((p: { title: string }) => p.title);
      assert.ok(titles.includes('Listed'));
      for (const hidden of ['Protected', 'Private', 'Ends', 'Revoked'])
        assert.ok(!titles.includes(hidden), hidden);
      const item = page.body.data.find((p: { title: string }) => p.title === 'Listed');
      assert.deepEqual(Object.keys(item).sort(), ['created_at', 'languages', 'size', 'slug', 'title']);
      assert.equal(item.slug, listed.body.data.slug);
      assert.deepEqual(item.languages, ['python', 'markdown']);
      assert.equal(item.size, Buffer.byteLength(TWO_FILES[0]!.content + TWO_FILES[1]!.content));
      assert.ok(!JSON.stringify(page.body).includes('print('), 'no text in the list');

      assert.equal((await setPublicPage(false)).status, 200);
      assert.equal((await t.json('/api/public/pastes')).status, 404);
    });

    it('answers 410 "revoked" on every read of a revoked paste; a key revokes only its own', async () => {
      const made = await create({ files: TWO_FILES }, apiKey(writer.key));
      const { id, slug } = made.body.data as { id: string; slug: string };
      const byOther = await t.json(`/api/user/pastes/${id}/revoke`, {
        method: 'POST',
        headers: apiKey(other.key),
      });
      assert.equal(byOther.status, 404);
      assert.equal((await t.json(`/api/paste/${slug}`)).status, 200);

      const revoked = await t.json(`/api/user/pastes/${id}/revoke`, {
        method: 'POST',
        headers: apiKey(writer.key),
      });
      assert.equal(revoked.status, 200);
      assert.equal(revoked.body.data.status, 'revoked');
      assert.ok(revoked.body.data.revoked_at);

      const read = await t.json(`/api/paste/${slug}`);
      assert.equal(read.status, 410);
      // JSON messages stay Chinese, as CloudPaste clients match them.
      assert.equal(read.body.message, '文本分享已被撤销');
      assert.equal(
        (await t.json(`/api/paste/${slug}`, { method: 'POST', json: { password: 'x' } })).status,
        410,
      );
      const raw = await t.request(`/api/raw/${slug}?file=main.py`, { headers: { 'Accept-Language': 'en' } });
      assert.equal(raw.status, 410);
      assert.equal(await raw.text(), '文本分享已被撤销');
      // The owner still lists it, marked revoked.
      const mine = await t.json('/api/user/pastes', { headers: apiKey(writer.key) });
      assert.equal(mine.body.data.find((p: { id: string }) => p.id === id).status, 'revoked');
    });

    it('answers 410 on every public route of a revoked file share, counted tokens included', async () => {
      const up = await t.json('/api/upload-direct/notes.txt?password=pw', {
        method: 'PUT',
        headers: apiKey(writer.key),
        body: 'file share bytes',
      });
      assert.equal(up.status, 200, JSON.stringify(up.body));
      const { id, slug } = up.body.data as { id: string; slug: string };
      const verified = await t.json(`/api/public/files/${slug}/verify`, {
        method: 'POST',
        json: { password: 'pw' },
      });
      assert.equal(verified.status, 200);
      const download = new URL(verified.body.data.downloadUrl as string);
      const view = new URL(verified.body.data.previewUrl as string);
      const before = await t.request(download.pathname + download.search);
      assert.equal(await before.text(), 'file share bytes');

      const byOther = await t.json(`/api/user/files/${id}/revoke`, {
        method: 'POST',
        headers: apiKey(other.key),
      });
      assert.equal(byOther.status, 404);
      const revoked = await t.json(`/api/user/files/${id}/revoke`, {
        method: 'POST',
        headers: apiKey(writer.key),
      });
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      assert.equal(revoked.body.data.status, 'revoked');

      const info = await t.json(`/api/public/files/${slug}`);
      assert.equal(info.status, 410);
      assert.equal(info.body.message, '文件分享已被撤销');
      const verify = await t.json(`/api/public/files/${slug}/verify`, {
        method: 'POST',
        json: { password: 'pw' },
      });
      assert.equal(verify.status, 410);
      // The token counted before the revoke opens nothing now.
      const dl = await t.request(download.pathname + download.search);
      assert.equal(dl.status, 410);
      assert.equal((await t.request(view.pathname + view.search)).status, 410);
      assert.equal((await t.request(`/api/file-download/${slug}?password=pw`)).status, 410);
      // The bytes stay until the owner deletes the share.
      assert.equal((await t.json(`/api/user/files/${id}`, { headers: apiKey(writer.key) })).status, 200);
    });
  });
}
