/**
 * Bundles (docs/api.md "Bundles") over HTTP on both databases, local disk and radosgw: making one
 * from file shares, pastes and mount files; who may bundle what; the public page, its items and the
 * zip byte for byte; passwords and visit tokens; editing and revoking (410 at once); exact visit
 * counting under 200 concurrent visits; item shares neither counted nor shown once gone; a zip of
 * 1,000 files streamed with bounded memory.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FilesTable } from '../src/db/schema.ts';
import type { StorageDriver } from '../src/storage/driver.ts';
import { streamOf } from './storage/contract.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, S3_SKIP, s3AdminClient } from './support/s3.ts';
import { apiKey, bearer, createTestApp, fileRow, type TestApp } from './support/test-app.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'cubby-bundles-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** Names and content hashes of a zip file, as Python's zipfile reads it (after testzip). */
function zipListing(file: string): { bad: string | null; entries: Array<{ name: string; sha: string }> } {
  const script = [
    'import hashlib, json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'print(json.dumps({"bad": z.testzip(), "entries": [{"name": i.filename,',
    ' "sha": hashlib.sha256(z.read(i)).hexdigest()} for i in z.infolist()]}))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 16 << 20 }));
}

for (const dialect of DIALECTS) {
  for (const kind of ['local', 's3'] as const) {
    describe(`bundles (${dialect}, ${kind})`, { skip: kind === 's3' ? S3_SKIP : false }, () => {
      let t: TestApp;
      let admin: Record<string, string>;
      let alice: { id: string; key: string };
      let bob: { id: string; key: string };
      let configId: string;
      let driver: StorageDriver;
      let bucket: string | undefined;
      let localRoot: string | undefined;
      const s3 = kind === 's3' ? s3AdminClient() : undefined;
      const photo = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 251));

      before(async () => {
        t = await createTestApp(dialect, { TRUST_PROXY: '1' });
        t.clock.followRealTime();
        admin = bearer(await t.adminToken());
        if (kind === 's3') {
          bucket = await createBucket(s3!, 'cubby-bundles');
          configId = await insertS3Config(t, bucket);
        } else {
          localRoot = `${t.database.dataDir}/b-${randomUUID()}`;
          const res = await t.json('/api/s3-configs', {
            method: 'POST',
            headers: admin,
            json: { name: 'b', provider_type: 'Local', root_path: localRoot },
          });
          configId = res.body.data.id;
        }
        const mount = await t.json('/api/admin/mounts', {
          method: 'POST',
          headers: admin,
          json: { name: 'm', mount_path: '/m', storage_config_id: configId },
        });
        assert.equal(mount.status, 201, JSON.stringify(mount.body));
        driver = await t.services.storageConfigs.driver((await t.services.storageConfigs.find(configId))!);
        alice = await t.createKey({
          name: 'alice',
          file_permission: true,
          text_permission: true,
          mount_permission: true,
          basic_path: '/m/alice',
        });
        bob = await t.createKey({ name: 'bob', file_permission: true, text_permission: true });
        await driver.write('/alice/report.pdf', streamOf(photo));
        await driver.write('/alice/docs/notes.txt', streamOf('mount notes'));
        await driver.write('/other/secret.txt', streamOf('secret'));
      });
      after(async () => {
        await t?.close();
        if (bucket) await deleteBucket(s3!, bucket);
      });

      /** A ready file share of `owner` (a key id) holding `bytes`, written as an upload leaves it. */
      async function fileShare(
        owner: string,
        bytes: string | Buffer,
        fields: Partial<FilesTable> = {},
      ): Promise<FilesTable> {
        const body = Buffer.from(bytes);
        const storagePath = `/shares/${randomUUID()}`;
        await driver.write(storagePath, streamOf(body));
        const row = fileRow({
          storage_config_id: configId,
          storage_path: storagePath,
          size: body.length,
          created_by: `apikey:${owner}`,
          ...fields,
        });
        await t.services.files.repo.insert(row);
        return row;
      }
      async function paste(key: string, content: string, format = 'markdown'): Promise<string> {
        const res = await t.json('/api/paste', {
          method: 'POST',
          headers: apiKey(key),
          json: { content, format },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.data.slug as string;
      }
      const create = (headers: Record<string, string>, body: Record<string, unknown>) =>
        t.json('/api/bundles', { method: 'POST', headers, json: body });
      const open = (slug: string, ip = '203.0.113.9') =>
        t.json(`/api/public/bundles/${slug}`, { headers: { 'X-Forwarded-For': ip, 'X-Cubby-Lang': 'en' } });
      /** Fetches a link the API answered (an absolute URL) through the app. */
      const follow = (url: string, init: RequestInit = {}) =>
        t.request(new URL(url).pathname + new URL(url).search, init);

      it('makes a bundle of own file shares, pastes and mount files; the page lists them and serves each', async () => {
        const share = await fileShare(alice.id, 'file share bytes', { filename: 'a.txt' });
        const twin = await fileShare(alice.id, 'second a', { filename: 'A.txt' });
        const pasteSlug = await paste(alice.key, '# Hello\n中文');
        const made = await create(apiKey(alice.key), {
          title: 'Quarterly',
          items: [
            { type: 'file', value: share.slug },
            { type: 'file', value: twin.slug },
            { type: 'paste', value: pasteSlug },
            { type: 'path', value: '/m/alice/report.pdf' },
          ],
        });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        assert.match(made.body.data.slug, /^[A-Za-z0-9]{6}$/);
        assert.equal(made.body.data.url, `http://localhost/bundle/${made.body.data.slug}`);

        const page = await open(made.body.data.slug);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        const view = page.body.data;
        assert.equal(view.title, 'Quarterly');
        assert.equal(view.views, 1, 'opening counts the visit');
        assert.deepEqual(
          view.items.map((i: { name: string; kind: string; size: number }) => [i.name, i.kind, i.size]),
          [
            ['a.txt', 'file', 16],
            ['A (2).txt', 'file', 8],
            [`${pasteSlug}.md`, 'paste', Buffer.byteLength('# Hello\n中文')],
            ['report.pdf', 'mount', photo.length],
          ],
        );
        const bodies = await Promise.all(
          view.items.map(async (i: { download_url: string }) =>
            Buffer.from(await (await follow(i.download_url)).arrayBuffer()),
          ),
        );
        assert.deepEqual(
          bodies.map((b) => sha(b)),
          [sha('file share bytes'), sha('second a'), sha('# Hello\n中文'), sha(photo)],
        );
        // A range of the mount file, served like a file share (206, attachment, nosniff).
        const ranged = await follow(view.items[3].download_url, { headers: { Range: 'bytes=10-19' } });
        assert.equal(ranged.status, 206);
        assert.deepEqual(Buffer.from(await ranged.arrayBuffer()), photo.subarray(10, 20));
        assert.match(ranged.headers.get('content-disposition')!, /^attachment/);
        assert.equal(ranged.headers.get('x-content-type-options'), 'nosniff');
        const preview = await follow(view.items[0].preview_url);
        assert.equal(preview.headers.get('content-type'), 'text/plain; charset=utf-8');

        // The zip: every item, names as listed, bytes as stored.
        const zip = await follow(view.zip_url);
        assert.equal(zip.status, 200);
        const bytes = Buffer.from(await zip.arrayBuffer());
        assert.equal(bytes.length, Number(zip.headers.get('content-length')));
        const file = path.join(tmp, `${randomUUID()}.zip`);
        await writeFile(file, bytes);
        const listing = zipListing(file);
        assert.equal(listing.bad, null);
        assert.deepEqual(
          listing.entries.map((e) => [e.name, e.sha]),
          view.items.map((i: { name: string }, n: number) => [i.name, sha(bodies[n]!)]),
        );
        const again = await open(made.body.data.slug);
        assert.equal(again.body.data.views, 2, 'links with the visit token counted nothing');
        assert.equal(
          (await t.services.files.repo.findById(share.id))!.views,
          0,
          "the item share's views are its own",
        );
      });

      it('lets nobody bundle what is not theirs, or reach past their mount folder', async () => {
        const bobs = await fileShare(bob.id, 'bob');
        const mine = await fileShare(alice.id, 'mine');
        const bobPaste = await paste(bob.key, 'bob text');
        const cases: Array<[Record<string, string>, unknown[], number, RegExp]> = [
          [apiKey(alice.key), [{ type: 'file', value: bobs.slug }], 403, /Only your own shares/],
          [apiKey(alice.key), [{ type: 'paste', value: bobPaste }], 403, /Only your own shares/],
          [apiKey(alice.key), [{ type: 'file', value: 'nope404' }], 404, /No such share/],
          [apiKey(alice.key), [{ type: 'path', value: '/m/other/secret.txt' }], 403, /./],
          [apiKey(alice.key), [{ type: 'path', value: '/m/alice/../other/secret.txt' }], 400, /Invalid path/],
          [apiKey(alice.key), [{ type: 'path', value: '/m/alice/docs' }], 400, /Only files/],
          [apiKey(bob.key), [{ type: 'path', value: '/m/alice/report.pdf' }], 403, /mount/],
          [apiKey(alice.key), [], 400, /at least one/],
          [
            apiKey(alice.key),
            Array.from({ length: 1001 }, () => ({ type: 'file', value: mine.slug })),
            400,
            /1,000/,
          ],
          [apiKey(alice.key), ['file:x'], 400, /Each item/],
          [{}, [{ type: 'file', value: mine.slug }], 401, /./],
        ];
        for (const [headers, items, status, message] of cases) {
          const res = await create({ ...headers, 'X-Cubby-Lang': 'en' }, { items });
          assert.equal(
            res.status,
            status,
            `${JSON.stringify(items).slice(0, 80)}: ${JSON.stringify(res.body)}`,
          );
          assert.match(res.body.message, message);
        }
        // The admin may bundle anyone's share.
        assert.equal((await create(admin, { items: [{ type: 'file', value: bobs.slug }] })).status, 201);
      });

      it('edits (title, password, views, items) and revokes: 410 at once, tokens too', async () => {
        const one = await fileShare(alice.id, 'one', { filename: 'one.txt' });
        const two = await fileShare(alice.id, 'two', { filename: 'two.txt' });
        const made = await create(apiKey(alice.key), { items: [{ type: 'file', value: one.slug }] });
        const slug = made.body.data.slug as string;
        const before = (await open(slug)).body.data;

        // Listed for its maker and the admin, not for bob.
        const mine = await t.json('/api/bundles', { headers: apiKey(alice.key) });
        assert.ok(mine.body.data.bundles.some((b: { slug: string }) => b.slug === slug));
        const bobs = await t.json('/api/bundles', { headers: apiKey(bob.key) });
        assert.ok(!bobs.body.data.bundles.some((b: { slug: string }) => b.slug === slug));
        assert.equal((await t.json(`/api/bundles/${slug}`, { headers: apiKey(bob.key) })).status, 404);
        assert.equal(
          (await t.json(`/api/bundles/${slug}`, { method: 'DELETE', headers: apiKey(bob.key) })).status,
          404,
        );

        const edited = await t.json(`/api/bundles/${slug}`, {
          method: 'PUT',
          headers: apiKey(alice.key),
          json: { title: 'Renamed', password: 'open sesame', items: [{ type: 'file', value: two.slug }] },
        });
        assert.equal(edited.status, 200, JSON.stringify(edited.body));
        assert.deepEqual(
          edited.body.data.items.map((i: { name: string }) => i.name),
          ['two.txt'],
        );
        // The detail names each item as a PUT does, so an editor can send the list back reordered.
        const both = await t.json(`/api/bundles/${slug}`, {
          method: 'PUT',
          headers: apiKey(alice.key),
          json: {
            items: [
              { type: 'file', value: two.slug },
              { type: 'file', value: one.slug },
            ],
          },
        });
        const named = both.body.data.items.map((i: { type: string; value: string }) => ({
          type: i.type,
          value: i.value,
        }));
        assert.deepEqual(named, [
          { type: 'file', value: two.slug },
          { type: 'file', value: one.slug },
        ]);
        const reordered = await t.json(`/api/bundles/${slug}`, {
          method: 'PUT',
          headers: apiKey(alice.key),
          json: { items: named.reverse().slice(1) },
        });
        assert.deepEqual(
          reordered.body.data.items.map((i: { name: string }) => i.name),
          ['two.txt'],
        );
        const locked = await open(slug);
        assert.equal(locked.body.data.requires_password, true);
        assert.equal(locked.body.data.items, undefined, 'no items before the password');
        assert.equal(locked.body.data.views, 1, 'a locked page counts nothing');
        assert.equal(
          (await follow(before.items[0].download_url)).status,
          403,
          'a new password retires old tokens',
        );
        const wrong = await t.json(`/api/public/bundles/${slug}/verify`, {
          method: 'POST',
          json: { password: 'x' },
        });
        assert.equal(wrong.status, 401);
        const right = await t.json(`/api/public/bundles/${slug}/verify`, {
          method: 'POST',
          json: { password: 'open sesame' },
        });
        assert.equal(right.status, 200);
        assert.equal(right.body.data.title, 'Renamed');
        assert.equal(await (await follow(right.body.data.items[0].download_url)).text(), 'two');
        // Without the token a byte request needs the password, and counts a visit.
        assert.equal((await t.request(`/api/public/bundles/${slug}/items/0/download`)).status, 401);
        const withPassword = await t.request(
          `/api/public/bundles/${slug}/items/0/download?password=open%20sesame`,
        );
        assert.equal(await withPassword.text(), 'two');
        const forged = await t.request(
          `/api/public/bundles/${slug}/zip?token=1.AAAAAAAAAAAAAAAAAAAAAA.${'A'.repeat(43)}`,
        );
        assert.equal(forged.status, 403);
        const detail = await t.json(`/api/bundles/${slug}`, { headers: apiKey(alice.key) });
        assert.equal(detail.body.data.views, 3);

        const revoked = await t.json(`/api/bundles/${slug}`, {
          method: 'DELETE',
          headers: apiKey(alice.key),
        });
        assert.equal(revoked.status, 200);
        for (const res of [
          await open(slug),
          await t.json(`/api/public/bundles/${slug}/verify`, {
            method: 'POST',
            json: { password: 'open sesame' },
          }),
          await follow(right.body.data.items[0].download_url),
          await follow(right.body.data.zip_url),
        ]) {
          assert.equal(res.status, 410);
        }
        assert.match((await open(slug)).body.message, /revoked/);
        const listed = await t.json('/api/bundles', { headers: admin });
        assert.equal(
          listed.body.data.bundles.find((b: { slug: string }) => b.slug === slug).state,
          'revoked',
        );
        assert.equal(
          (
            await t.json(`/api/bundles/${slug}`, {
              method: 'PUT',
              headers: apiKey(alice.key),
              json: { title: 'x' },
            })
          ).status,
          410,
        );
      });

      it('drops an item whose share expired or was deleted, or whose mount file its maker no longer reaches', async () => {
        const soon = await fileShare(alice.id, 'soon', {
          filename: 'soon.txt',
          expires_at: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
        });
        const gone = await fileShare(alice.id, 'gone', { filename: 'gone.txt' });
        const once = await fileShare(alice.id, 'once', { filename: 'once.txt', max_views: 1 });
        const key = await t.createKey({
          name: 'temp',
          mount_permission: true,
          file_permission: true,
          basic_path: '/m/alice',
        });
        const made = await create(apiKey(key.key), {
          items: [{ type: 'path', value: '/m/alice/docs/notes.txt' }],
        });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        const mine = await create(apiKey(alice.key), {
          items: [soon, gone, once].map((f) => ({ type: 'file', value: f.slug })),
        });
        // `once` allows one view of its own: the bundle reads it twice without using it up.
        const first = (await open(mine.body.data.slug)).body.data;
        assert.equal(await (await follow(first.items[2].download_url)).text(), 'once');
        assert.equal(await (await follow(first.items[2].download_url)).text(), 'once');
        await t.services.files.repo.delete(gone.id);
        t.clock.advance(2 * 3600_000);
        const later = (await open(mine.body.data.slug)).body.data;
        assert.deepEqual(
          later.items.map((i: { name: string }) => i.name),
          ['once.txt'],
        );
        assert.equal(
          (await follow(first.items[0].download_url)).status,
          404,
          'an expired item is not served',
        );

        assert.equal((await open(made.body.data.slug)).body.data.items.length, 1);
        await t.json(`/api/admin/api-keys/${key.id}`, { method: 'DELETE', headers: admin });
        assert.equal(
          (await open(made.body.data.slug)).body.data.items.length,
          0,
          'read with its maker’s rights, now none',
        );
      });

      it('counts exactly max_views visits under 200 concurrent visits', { skip: kind === 's3' }, async () => {
        const share = await fileShare(alice.id, 'counted');
        const made = await create(apiKey(alice.key), {
          max_views: 7,
          items: [{ type: 'file', value: share.slug }],
        });
        const slug = made.body.data.slug as string;
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            i % 2 ? open(slug, `198.51.100.${i}`) : t.request(`/api/public/bundles/${slug}/items/0/download`),
          ),
        );
        const statuses = answers.map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 200).length, 7, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 410).length, 193);
        const detail = await t.json(`/api/bundles/${slug}`, { headers: apiKey(alice.key) });
        assert.equal(detail.body.data.views, 7);
        assert.equal(detail.body.data.state, 'used_up');
      });

      it('streams a zip of 1,000 files with bounded memory', { skip: kind === 's3' }, async (ctx) => {
        const rows: FilesTable[] = [];
        await mkdir(path.join(localRoot!, 'many'), { recursive: true });
        for (let i = 0; i < 1000; i++) {
          const body = `small file ${i}\n`.repeat(20);
          const storagePath = `/many/${i}.txt`;
          // Straight onto the disk: a thousand writes through the driver (each synced) take seconds.
          await writeFile(path.join(localRoot!, storagePath), body);
          rows.push(
            fileRow({
              storage_config_id: configId,
              storage_path: storagePath,
              filename: i % 10 === 0 ? 'same.txt' : `${i}.txt`,
              size: Buffer.byteLength(body),
              created_by: `apikey:${alice.id}`,
            }),
          );
        }
        for (let i = 0; i < rows.length; i += 200) {
          await t.database.db.kysely
            .insertInto('files')
            .values(rows.slice(i, i + 200))
            .execute();
        }
        const made = await create(apiKey(alice.key), {
          items: rows.map((r) => ({ type: 'file', value: r.slug })),
        });
        assert.equal(made.status, 201, JSON.stringify(made.body).slice(0, 300));
        const zipUrl = (await open(made.body.data.slug)).body.data.zip_url as string;

        // Read as a client would, chunk by chunk onto disk, sampling the process's memory meanwhile.
        const file = path.join(tmp, 'many.zip');
        global.gc?.();
        const start = process.memoryUsage().rss;
        let peak = start;
        const res = await follow(zipUrl);
        assert.equal(res.status, 200);
        const sampled = Readable.fromWeb(res.body as WebStream<Uint8Array>).on('data', () => {
          peak = Math.max(peak, process.memoryUsage().rss);
        });
        await pipeline(sampled, createWriteStream(file));
        const growthMiB = (peak - start) / 1024 / 1024;
        ctx.diagnostic(`RSS grew ${growthMiB.toFixed(1)} MiB while zipping 1,000 files`);
        assert.ok(growthMiB < 64, `RSS grew ${growthMiB.toFixed(1)} MiB`);
        const listing = zipListing(file);
        assert.equal(listing.bad, null);
        assert.equal(listing.entries.length, 1000);
        assert.equal(
          new Set(listing.entries.map((e) => e.name.toLowerCase())).size,
          1000,
          'names made unique',
        );
        assert.equal(listing.entries[10]!.name, 'same (2).txt');
        assert.equal(listing.entries[999]!.sha, sha('small file 999\n'.repeat(20)));
      });
    });
  }
}
