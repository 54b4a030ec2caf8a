/**
 * Link cards (issue 24, docs/api.md "Link cards"): a share page fetched by a chat app's preview
 * robot carries OpenGraph, Twitter card and oEmbed tags, escaped; fetching the page or a share's
 * bytes route as such a robot counts no view (a one-view share still opens for a person afterwards);
 * a protected share's card reveals nothing; a public image gets a picture that counts no view;
 * GET /api/oembed answers oEmbed 1.0; an unknown or expired share gets the "unavailable" card.
 * Both databases.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { bearer, createTestApp, mountLocalDisk, type TestApp } from './support/test-app.ts';

const ORIGIN = 'https://cubby.example';
const AGENTS = {
  discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  telegram: 'TelegramBot (like TwitterBot)',
};
const PERSON =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126 Safari/537.36';
const HOSTILE = '"><script>alert(1)</script>';
/** A file name cannot hold a slash: the same attack without one. */
const HOSTILE_NAME = '"><img src=x onerror=alert(1)>';
const INLINE = "document.documentElement.dataset.theme='dark';";
// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The content of every `<meta property|name="key">` of a page, by key. */
function metaTags(html: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g))
    tags.set(m[1]!, m[2]!);
  return tags;
}
const unescape = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

for (const dialect of DIALECTS) {
  describe(`link cards (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let dist: string;

    before(async () => {
      dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-cards-dist-'));
      fs.writeFileSync(
        path.join(dist, 'index.html'),
        `<!doctype html><html><head><title>Cubby</title><script>${INLINE}</script></head><body><div id="root"></div></body></html>`,
      );
      t = await createTestApp(dialect, { PUBLIC_URL: ORIGIN }, dist);
      admin = bearer(await t.adminToken());
    });
    after(async () => {
      await t.close();
      fs.rmSync(dist, { recursive: true, force: true });
    });

    const slug = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`;
    const paste = async (body: Record<string, unknown>) => {
      const res = await t.json('/api/paste', {
        method: 'POST',
        headers: admin,
        json: { slug: slug('p'), ...body },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.slug as string;
    };
    const upload = async (filename: string, bytes: Buffer, fields: Record<string, string> = {}) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      form.set('slug', slug('f'));
      form.set('file', new Blob([new Uint8Array(bytes)]), filename);
      const res = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { slug: res.body.data.slug as string, id: res.body.data.id as string };
    };
    const page = async (pathname: string, agent: string) => {
      const res = await t.request(pathname, { headers: { 'User-Agent': agent } });
      assert.equal(res.status, 200, pathname);
      return { res, html: await res.text() };
    };
    const pasteViews = async (s: string) =>
      (await t.services.pastes.get({ type: 'admin', id: 'x' } as never, s)).views;
    const fileViews = async (id: string) => (await t.services.files.repo.findById(id))?.views;

    it('a paste page carries its card, escaped, for Discord, Slack and Telegram alike, and no fetch counts a view', async () => {
      const s = await paste({ content: 'hello card', remark: `notes ${HOSTILE}`, maxViews: 1 });
      for (const agent of Object.values(AGENTS)) {
        const { res, html } = await page(`/paste/${s}`, agent);
        const tags = metaTags(html);
        assert.equal(unescape(tags.get('og:title')!), `notes ${HOSTILE}`);
        assert.ok(!html.includes('<script>alert(1)'), 'the name is escaped');
        assert.match(tags.get('og:description')!, /^Text · 10 B · markdown · never expires$/);
        assert.equal(tags.get('og:site_name'), 'Cubby');
        assert.equal(tags.get('og:url'), `${ORIGIN}/paste/${s}`);
        assert.equal(tags.get('og:type'), 'website');
        assert.equal(tags.get('twitter:card'), 'summary');
        assert.ok(!tags.has('og:image'));
        const oembedHref = html.match(
          /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/,
        )?.[1];
        assert.equal(
          unescape(oembedHref ?? ''),
          `${ORIGIN}/api/oembed?url=${encodeURIComponent(`${ORIGIN}/paste/${s}`)}&format=json`,
        );
        // The tags are no script: the page's policy and its one inline script's hash stand as they were.
        const csp = res.headers.get('content-security-policy') ?? '';
        assert.ok(csp.includes(`'sha256-${createHash('sha256').update(INLINE).digest('base64')}'`), csp);
        assert.equal([...html.matchAll(/<script/g)].length, 1);
        // The raw text route answers a robot with the card, not the text.
        const raw = await t.request(`/api/raw/${s}`, { headers: { 'User-Agent': agent } });
        assert.equal(raw.status, 200);
        assert.match(raw.headers.get('content-type') ?? '', /^text\/html/);
        assert.equal(raw.headers.get('content-security-policy'), "default-src 'none'");
        const rawHtml = await raw.text();
        assert.ok(!rawHtml.includes('hello card'));
        assert.equal(unescape(metaTags(rawHtml).get('og:title')!), `notes ${HOSTILE}`);
      }
      assert.equal(await pasteViews(s), 0);
      // Its one view is still there for a person.
      const read = await t.json(`/api/paste/${s}`, { headers: { 'User-Agent': PERSON } });
      assert.equal(read.status, 200);
      assert.equal(read.body.data.content, 'hello card');
      assert.equal((await t.json(`/api/paste/${s}`)).status, 410);
    });

    it("a file share's page and bytes routes give robots the card, count nothing, and the one view stays a person's", async () => {
      const name = `report ${HOSTILE_NAME}.txt`;
      const share = await upload(name, Buffer.from('the secret report'), { max_views: '1' });
      for (const agent of Object.values(AGENTS)) {
        const { html } = await page(`/file/${share.slug}`, agent);
        assert.ok(!html.includes('<img src=x'));
        const tags = metaTags(html);
        assert.equal(unescape(tags.get('og:title')!), name);
        assert.match(tags.get('og:description')!, /^File · 17 B · text\/plain.* · never expires$/);
        assert.equal(tags.get('twitter:card'), 'summary');
        for (const route of ['file-view', 'file-download']) {
          const res = await t.request(`/api/${route}/${share.slug}`, { headers: { 'User-Agent': agent } });
          assert.equal(res.status, 200);
          const html = await res.text();
          assert.ok(!html.includes('the secret report'), route);
          assert.ok(!html.includes('<img src=x'), route);
          assert.equal(unescape(metaTags(html).get('og:title')!), name);
        }
      }
      assert.equal(await fileViews(share.id), 0);
      const person = await t.request(`/api/file-download/${share.slug}`, {
        headers: { 'User-Agent': PERSON },
      });
      assert.equal(person.status, 200);
      assert.equal(await person.text(), 'the secret report');
      assert.equal(await fileViews(share.id), 1);
      assert.equal((await t.request(`/api/file-download/${share.slug}`)).status, 410);
    });

    it("a public image's card shows its picture, which counts no view; a limited or protected one shows none", async () => {
      const open = await upload('cat.png', PNG);
      const tags = metaTags((await page(`/file/${open.slug}`, AGENTS.discord)).html);
      assert.equal(tags.get('twitter:card'), 'summary_large_image');
      const image = tags.get('og:image')!;
      assert.equal(image, `${ORIGIN}/api/public/files/${open.slug}/card-image`);
      const picture = await t.request(image.slice(ORIGIN.length), {
        headers: { 'User-Agent': AGENTS.discord },
      });
      assert.equal(picture.status, 200);
      assert.equal(picture.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await picture.arrayBuffer()), PNG);
      assert.equal(await fileViews(open.id), 0);

      for (const fields of [{ max_views: '3' }, { password: 'pw-123456' }] as Record<string, string>[]) {
        const share = await upload('cat.png', PNG, fields);
        const shown = metaTags((await page(`/file/${share.slug}`, AGENTS.slack)).html);
        assert.equal(shown.get('twitter:card'), 'summary', JSON.stringify(fields));
        assert.ok(!shown.has('og:image'));
        const res = await t.request(`/api/public/files/${share.slug}/card-image`);
        assert.equal(res.status, 404);
        assert.equal(await fileViews(share.id), 0);
      }
    });

    it("a protected share's card says only that it is protected", async () => {
      const file = await upload(`payroll ${HOSTILE_NAME}.xlsx`, Buffer.from('x'.repeat(2048)), {
        password: 'pw-123456',
      });
      const p = await paste({ content: 'secret text', remark: 'payroll notes', password: 'pw-123456' });
      for (const pathname of [`/file/${file.slug}`, `/paste/${p}`]) {
        const { html } = await page(pathname, AGENTS.telegram);
        const tags = metaTags(html);
        assert.equal(tags.get('og:title'), 'Protected share');
        assert.match(tags.get('og:description')!, /protected by a password/);
        for (const secret of ['payroll', '2 KB', 'xlsx', 'secret text', 'markdown']) {
          assert.ok(!html.includes(secret), `${pathname} shows ${secret}`);
        }
        const embed = await t.json(`/api/oembed?url=${encodeURIComponent(ORIGIN + pathname)}`);
        assert.equal(embed.body.title, 'Protected share');
        assert.ok(!JSON.stringify(embed.body).includes('payroll'));
      }
      const bytes = await t.request(`/api/file-view/${file.slug}`, {
        headers: { 'User-Agent': AGENTS.discord },
      });
      const html = await bytes.text();
      assert.equal(metaTags(html).get('og:title'), 'Protected share');
      assert.ok(!html.includes('payroll'));
    });

    it('GET /api/oembed answers oEmbed 1.0 for share pages of this site, and nothing else', async () => {
      const s = await paste({ content: 'embed me', remark: 'An embed' });
      const url = `${ORIGIN}/paste/${s}`;
      const res = await t.json(`/api/oembed?url=${encodeURIComponent(url)}&format=json`);
      assert.equal(res.status, 200);
      assert.match(res.res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(res.body, {
        version: '1.0',
        type: 'link',
        title: 'An embed',
        description: 'Text · 8 B · markdown · never expires',
        provider_name: 'Cubby',
        provider_url: `${ORIGIN}/`,
        cache_age: 300,
      });
      assert.equal(await pasteViews(s), 0);
      assert.equal((await t.json(`/api/oembed?url=${encodeURIComponent(url)}&format=xml`)).status, 501);
      for (const other of ['https://elsewhere.example/paste/' + s, `${ORIGIN}/admin`, 'not a url']) {
        const answer = await t.json(`/api/oembed?url=${encodeURIComponent(other)}`);
        assert.equal(answer.status, 404, other);
        assert.equal(answer.body.success, false);
      }
      assert.equal((await t.json('/api/oembed')).status, 400);
    });

    it('a revoked share says it is unavailable and shows nothing of itself', async () => {
      const p = await paste({ content: 'minutes', title: 'Board minutes' });
      const file = await upload('board-deck.pdf', Buffer.from('deck'));
      const revoke = async (url: string) =>
        assert.equal((await t.json(url, { method: 'POST', headers: admin })).status, 200, url);
      await revoke(`/api/admin/pastes/${p}/revoke`);
      await revoke(`/api/admin/files/${file.id}/revoke`);
      for (const pathname of [`/paste/${p}`, `/file/${file.slug}`]) {
        const { html } = await page(pathname, AGENTS.slack);
        assert.equal(metaTags(html).get('og:title'), 'Share unavailable', pathname);
        for (const secret of ['Board minutes', 'board-deck']) assert.ok(!html.includes(secret), secret);
      }
    });

    it('bundles and folder shares have cards: title and what they hold; protected ones say only that', async () => {
      const first = await upload('a.txt', Buffer.from('a'));
      const second = await paste({ content: 'b', title: 'Notes' });
      const bundle = async (json: Record<string, unknown>) => {
        const res = await t.json('/api/bundles', {
          method: 'POST',
          headers: admin,
          json: {
            items: [
              { type: 'file', value: first.slug },
              { type: 'paste', value: second },
            ],
            ...json,
          },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.data.slug as string;
      };
      const open = await bundle({ title: 'Trip photos' });
      const shut = await bundle({ title: 'Contracts', password: 'pw-123456' });
      await mountLocalDisk(t, admin, '/cards');
      const made = await t.json('/api/admin/fs/mkdir', {
        method: 'POST',
        headers: admin,
        json: { path: '/cards/Holiday 2026' },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const folder = await t.json('/api/fs/create-share', {
        method: 'POST',
        headers: admin,
        json: { path: '/cards/Holiday 2026' },
      });
      assert.equal(folder.status, 201, JSON.stringify(folder.body));
      const views = async (table: 'bundles' | 'folder_shares', s: string) =>
        (
          await t.database.db.kysely
            .selectFrom(table)
            .select('views')
            .where('slug', '=', s)
            .executeTakeFirst()
        )?.views;

      let tags = metaTags((await page(`/bundle/${open}`, AGENTS.discord)).html);
      assert.equal(tags.get('og:title'), 'Trip photos');
      assert.match(tags.get('og:description')!, /Bundle · 2 items/);
      const shutHtml = (await page(`/bundle/${shut}`, AGENTS.discord)).html;
      assert.equal(metaTags(shutHtml).get('og:title'), 'Protected share');
      assert.ok(!shutHtml.includes('Contracts'));
      const folderSlug = folder.body.data.slug as string;
      tags = metaTags((await page(`/folder/${folderSlug}`, AGENTS.telegram)).html);
      assert.equal(tags.get('og:title'), 'Holiday 2026');
      assert.match(tags.get('og:description')!, /^Folder/);
      // Building the cards counted no visit.
      assert.equal(await views('bundles', open), 0);
      assert.equal(await views('folder_shares', folderSlug), 0);
    });

    it('an unknown, expired or used-up share gets the generic "unavailable" card', async () => {
      const soon = await paste({
        content: 'brief',
        expiresAt: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
      });
      const once = await upload('once.txt', Buffer.from('once'), { max_views: '1' });
      assert.equal((await t.request(`/api/file-download/${once.slug}`)).status, 200);
      t.clock.advance(2 * 3600_000);
      for (const pathname of [
        '/paste/nosuchslug',
        '/file/nosuchslug',
        `/paste/${soon}`,
        `/file/${once.slug}`,
      ]) {
        const tags = metaTags((await page(pathname, AGENTS.discord)).html);
        assert.equal(tags.get('og:title'), 'Share unavailable', pathname);
        assert.equal(tags.get('og:url'), ORIGIN + pathname);
      }
      // Pages that are no share carry no card.
      assert.ok(!metaTags((await page('/upload', AGENTS.discord)).html).has('og:title'));
    });
  });
}
