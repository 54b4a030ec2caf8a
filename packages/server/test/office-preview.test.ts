/**
 * Office preview (issue 10 item 9): the `office_preview_enabled` setting (off by default), the
 * `office_preview` flag of the public info, and GET /api/office-preview/:slug — refused while off,
 * the same access rules as a download, 400 for a file the viewer cannot show, and a link on the
 * public origin to Cubby's own download route that still applies the password and the view limit
 * (the viewer's fetch counts a view; the route itself counts none). Both databases.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { bearer, createTestApp, type TestApp } from './support/test-app.ts';

const PUBLIC_URL = 'https://cubby.example';
const DOCX_BYTES = Buffer.from('PK\u0003\u0004 pretend this is a Word document');

for (const dialect of DIALECTS) {
  describe(`office preview (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let ipCounter = 0;
    /** A fresh client address, so the password limiter of one test does not touch another. */
    const nextIp = () => `198.51.100.${++ipCounter}`;

    before(async () => {
      t = await createTestApp(dialect, { PUBLIC_URL, TRUST_PROXY: '1' });
      admin = bearer(await t.adminToken());
    });
    after(() => t.close());

    const setEnabled = async (enabled: boolean) => {
      const res = await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: { office_preview_enabled: enabled },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };

    /** Uploads a share through the form route, as a client would. */
    const upload = async (
      filename: string,
      fields: Record<string, string> = {},
      body: Buffer = DOCX_BYTES,
    ): Promise<{ slug: string; id: string }> => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      form.set('slug', `o${randomBytes(5).toString('hex')}`);
      form.set('file', new Blob([new Uint8Array(body)]), filename);
      const res = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { slug: res.body.data.slug, id: res.body.data.id };
    };

    const preview = (slug: string, query = '', ip = nextIp()) =>
      t.json(`/api/office-preview/${slug}${query}`, { headers: { 'X-Forwarded-For': ip } });
    /** Fetches an absolute URL of the public origin from this app, as the viewer would; reads it all. */
    const fetchAsViewer = async (url: string) => {
      assert.ok(url.startsWith(`${PUBLIC_URL}/`), url);
      const res = await t.request(url.slice(PUBLIC_URL.length), { headers: { 'X-Forwarded-For': nextIp() } });
      return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
    };
    const viewsOf = async (id: string) => (await t.services.files.repo.findById(id))?.views;

    it('is off until the admin turns it on, and the setting is a boolean', async () => {
      const rows = (await t.json('/api/admin/system-settings', { headers: admin })).body.data;
      assert.equal(rows.find((r: { key: string }) => r.key === 'office_preview_enabled').value, 'false');
      const share = await upload('report.docx');
      const off = await preview(share.slug);
      assert.equal(off.status, 403);
      assert.equal(off.body.success, false);
      assert.equal(off.body.error, 'FORBIDDEN');
      assert.equal(off.body.data, null);
      assert.equal((await t.json(`/api/public/files/${share.slug}`)).body.data.office_preview, false);

      for (const bad of ['true', 1, null]) {
        const res = await t.json('/api/admin/system-settings', {
          method: 'PUT',
          headers: admin,
          json: { office_preview_enabled: bad },
        });
        assert.equal(res.status, 400, JSON.stringify(bad));
      }
      await setEnabled(true);
      const on = (await t.json('/api/admin/system-settings', { headers: admin })).body.data;
      assert.equal(on.find((r: { key: string }) => r.key === 'office_preview_enabled').value, 'true');
      await setEnabled(false);
      assert.equal((await preview(share.slug)).status, 403);
    });

    describe('when on', () => {
      before(() => setEnabled(true));
      after(() => setEnabled(false));

      it('answers a token link to the download route on the public origin, counting nothing itself', async () => {
        const share = await upload('Quarterly report.docx', { max_views: '5' });
        const res = await preview(share.slug);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const { data } = res.body;
        assert.deepEqual(Object.keys(data).sort(), ['expires_in', 'filename', 'mimetype', 'url']);
        assert.equal(data.filename, 'Quarterly report.docx');
        assert.equal(
          data.mimetype,
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        );
        assert.equal(data.expires_in, 1800);
        const url = new URL(data.url);
        assert.equal(url.origin, PUBLIC_URL);
        assert.equal(url.pathname, `/api/file-download/${share.slug}`);
        assert.match(url.searchParams.get('token') ?? '', /^\d+\.[\w-]{22}\.[\w-]{43}$/);
        // CloudPaste's shape: the same fields at the top level, and is_temporary.
        for (const key of Object.keys(data)) assert.equal(res.body[key], data[key], key);
        assert.equal(res.body.is_temporary, true);
        assert.equal(res.body.success, true);

        assert.equal(await viewsOf(share.id), 0, 'asking for the link counts no view');
        const fetched = await fetchAsViewer(data.url);
        assert.equal(fetched.status, 200);
        assert.deepEqual(fetched.body, DOCX_BYTES);
        assert.equal(await viewsOf(share.id), 1, "the viewer's fetch counts a view");
        // The viewer may fetch again (or in ranges): the same token counts once.
        await fetchAsViewer(data.url);
        assert.equal(await viewsOf(share.id), 1);
        // Another preview is another reader.
        await fetchAsViewer((await preview(share.slug)).body.data.url);
        assert.equal(await viewsOf(share.id), 2);
      });

      it('never gives out a storage URL, even for a direct-mode share', async () => {
        const share = await upload('slides.pptx', { use_proxy: '0' });
        const { url } = (await preview(share.slug)).body.data;
        assert.equal(new URL(url).pathname, `/api/file-download/${share.slug}`);
        assert.equal(await viewsOf(share.id), 0);
      });

      it('a protected share needs its password or a token from the password check', async () => {
        const share = await upload('budget.xlsx', { password: 's3cret' });
        const info = await t.json(`/api/public/files/${share.slug}`);
        assert.equal(info.body.data.office_preview, true, 'the page may offer it before the password');
        assert.equal(info.body.data.previewUrl, null);

        const none = await preview(share.slug);
        assert.equal(none.status, 401);
        assert.equal(none.body.error, 'UNAUTHENTICATED');
        assert.equal((await preview(share.slug, '?password=wrong')).status, 403);
        assert.equal((await preview(share.slug, '?token=1.forged.token')).status, 403);

        const withPassword = await preview(share.slug, '?password=s3cret');
        assert.equal(withPassword.status, 200);

        const verified = await t.json(`/api/public/files/${share.slug}/verify`, {
          method: 'POST',
          json: { password: 's3cret' },
          headers: { 'X-Forwarded-For': nextIp() },
        });
        assert.equal(verified.body.data.office_preview, true);
        const token = new URL(verified.body.data.previewUrl).searchParams.get('token')!;
        const withToken = await preview(share.slug, `?token=${encodeURIComponent(token)}`);
        assert.equal(withToken.status, 200);

        // The link carries a token, not the password; it works without it, once per token.
        const link = withToken.body.data.url as string;
        assert.ok(!link.includes('s3cret'));
        assert.equal((await fetchAsViewer(link)).status, 200);
        assert.equal(await viewsOf(share.id), 1);

        // A new password retires the links given out before.
        const changed = await t.json(`/api/admin/files/${share.id}`, {
          method: 'PUT',
          headers: admin,
          json: { password: 'n3w-secret' },
        });
        assert.equal(changed.status, 200);
        assert.equal((await fetchAsViewer(withPassword.body.data.url)).status, 403);
      });

      it('too many wrong passwords from one address give 429', async () => {
        const share = await upload('plan.doc', { password: 'right' });
        const ip = nextIp();
        for (let i = 0; i < 5; i++) assert.equal((await preview(share.slug, '?password=no', ip)).status, 403);
        const limited = await preview(share.slug, '?password=right', ip);
        assert.equal(limited.status, 429);
        assert.ok(Number(limited.res.headers.get('retry-after')) > 0);
      });

      it('the view limit still applies: a used-up share answers 410', async () => {
        const share = await upload('once.xlsx', { max_views: '1' });
        const first = await preview(share.slug);
        assert.equal(first.status, 200);
        assert.equal((await fetchAsViewer(first.body.data.url)).status, 200);
        assert.equal((await preview(share.slug)).status, 410);
      });

      it('unknown is 404, expired is 410', async () => {
        assert.equal((await preview('no-such-share')).status, 404);
        const share = await upload('old.pptx', { expires_in: '1' });
        t.clock.advance(2 * 3600_000);
        const res = await preview(share.slug);
        assert.equal(res.status, 410);
        assert.equal(res.body.error, 'GONE');
      });

      it('refuses files the viewer cannot show with 400, and the info says which are offered', async () => {
        for (const name of ['paper.pdf', 'notes.txt', 'letter.odt', 'sheet.ods', 'docx']) {
          const share = await upload(name);
          const res = await preview(share.slug);
          assert.equal(res.status, 400, name);
          assert.equal(res.body.error, 'VALIDATION_FAILED');
          assert.equal(
            (await t.json(`/api/public/files/${share.slug}`)).body.data.office_preview,
            false,
            name,
          );
        }
        for (const name of ['a.doc', 'b.xlsm', 'c.ppsx']) {
          const share = await upload(name);
          assert.equal((await preview(share.slug)).status, 200, name);
          assert.equal(
            (await t.json(`/api/public/files/${share.slug}`)).body.data.office_preview,
            true,
            name,
          );
        }
      });

      it('messages are Chinese by default (whatever Accept-Language says); English with X-Cubby-Lang: en', async () => {
        const share = await upload('paper.pdf');
        assert.equal((await preview(share.slug)).body.message, '不是Office文件类型');
        const browser = await t.json(`/api/office-preview/${share.slug}`, {
          headers: { 'Accept-Language': 'en-US', 'X-Forwarded-For': nextIp() },
        });
        assert.equal(browser.body.message, '不是Office文件类型');
        const en = await t.json(`/api/office-preview/${share.slug}`, {
          headers: { 'X-Cubby-Lang': 'en', 'X-Forwarded-For': nextIp() },
        });
        assert.match(en.body.message, /not a document the Office viewer can show/);
      });
    });
  });
}
