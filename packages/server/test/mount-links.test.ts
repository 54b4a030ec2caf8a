/**
 * How a mount's downloads leave (docs/storage.md, "Download links"): `proxy` (through this server,
 * the default), `direct` (the storage's own presigned URL where it can sign one) and `custom_host`
 * (a public address in front of the mount's folder) — in the explorer's links, `fs/file-link`, our
 * WebDAV door and file shares made from the mount; a protected share always streams from here. On
 * local disk and, when S3_ENDPOINT is set, on radosgw. No test fetches a custom-host URL: it is an
 * address the admin names, checked as text.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, mountBucket, s3AdminClient, s3Env, S3_SKIP } from './support/s3.ts';
import { ADMIN, basic, bearer, createTestApp, mountLocalDisk, type TestApp } from './support/test-app.ts';

const CONTENT = 'the bytes of a file that leaves in several ways\n';
const CDN = 'https://cdn.example.com/files';

for (const dialect of DIALECTS) {
  describe(`download links follow the mount's link policy (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    const s3 = S3_SKIP ? undefined : s3AdminClient();
    let bucket: string | undefined;
    const mounts: Record<string, string> = {};

    before(async () => {
      t = await createTestApp(dialect);
      // The bucket checks the presigned URLs' dates against real time.
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      mounts.local = (await mountLocalDisk(t, admin, '/disk')).mountId;
      if (s3) {
        bucket = await createBucket(s3, 'cubby-links');
        await mountBucket(t, admin, bucket, '/bucket');
        const listed = await t.json('/api/admin/mounts', { headers: admin });
        mounts.s3 = listed.body.data.find((m: { mount_path: string }) => m.mount_path === '/bucket').id;
      }
      for (const root of ['/disk', ...(s3 ? ['/bucket'] : [])]) {
        const form = new FormData();
        form.append('path', `${root}/dir`);
        form.append('file', new Blob([CONTENT]), 'a b.txt');
        const res = await t.json('/api/admin/fs/upload', { method: 'POST', headers: admin, body: form });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
    });
    after(async () => {
      await t.close();
      if (s3 && bucket) await deleteBucket(s3, bucket);
    });

    const setPolicy = async (mount: string, link_policy: string, custom_host: string | null = null) => {
      const res = await t.json(`/api/admin/mounts/${mount}`, {
        method: 'PUT',
        headers: admin,
        json: { link_policy, custom_host },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.link_policy, link_policy);
    };
    const links = async (path: string) => {
      const res = await t.json(`/api/admin/fs/get?path=${encodeURIComponent(path)}`, { headers: admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { preview: new URL(res.body.data.preview_url), download: new URL(res.body.data.download_url) };
    };
    /** Our own signed link, fetched through the app: its bytes. */
    const fetchOwn = async (url: URL) => {
      const res = await t.request(url.pathname + url.search);
      return {
        status: res.status,
        text: await res.text(),
        disposition: res.headers.get('content-disposition'),
      };
    };
    const davGet = (path: string) =>
      t.request(`/dav${path.split('/').map(encodeURIComponent).join('/')}`, {
        headers: basic(ADMIN.username, ADMIN.password),
        redirect: 'manual',
      });

    it('a new mount sends downloads through this server, and the mount answers its policy', async () => {
      const mount = await t.json(`/api/admin/mounts/${mounts.local}`, { headers: admin });
      assert.equal(mount.body.data.link_policy, 'proxy');
      assert.equal(mount.body.data.custom_host, null);
      const { preview, download } = await links('/disk/dir/a b.txt');
      assert.match(download.pathname, /^\/api\/storage\/local\//);
      const got = await fetchOwn(download);
      assert.deepEqual([got.status, got.text], [200, CONTENT]);
      assert.match(got.disposition ?? '', /^attachment/);
      assert.equal((await fetchOwn(preview)).text, CONTENT);
      const dav = await davGet('/disk/dir/a b.txt');
      assert.equal(dav.status, 200);
      assert.equal(await dav.text(), CONTENT);
    });

    it('a signed link cannot be bent to another file', async () => {
      const { download } = await links('/disk/dir/a b.txt');
      const bent = new URL(download);
      bent.searchParams.set('key', '/dir/other.txt');
      assert.equal((await fetchOwn(bent)).status, 403);
    });

    it('custom_host: links and WebDAV point at the public address, with the path in the mount', async () => {
      await setPolicy(mounts.local!, 'custom_host', `${CDN}/`);
      const { download } = await links('/disk/dir/a b.txt');
      assert.equal(download.href, `${CDN}/dir/a%20b.txt`);
      const dav = await davGet('/disk/dir/a b.txt');
      assert.equal(dav.status, 302);
      assert.equal(dav.headers.get('location'), `${CDN}/dir/a%20b.txt`);
      const link = await t.json(`/api/admin/fs/file-link?path=${encodeURIComponent('/disk/dir/a b.txt')}`, {
        headers: admin,
      });
      assert.equal(link.status, 200, JSON.stringify(link.body));
      assert.match(JSON.stringify(link.body.data), /cdn\.example\.com/);
      await setPolicy(mounts.local!, 'proxy');
    });

    it('refuses a custom-host policy without an address, and a bad address, in both languages', async () => {
      const missing = await t.json(`/api/admin/mounts/${mounts.local}`, {
        method: 'PUT',
        headers: { ...admin, 'X-Cubby-Lang': 'en-US' },
        json: { link_policy: 'custom_host', custom_host: null },
      });
      assert.equal(missing.status, 400);
      assert.match(JSON.stringify(missing.body), /custom host/i);
      const bad = await t.json(`/api/admin/mounts/${mounts.local}`, {
        method: 'PUT',
        headers: { ...admin, 'X-Cubby-Lang': 'zh-CN' },
        json: { link_policy: 'custom_host', custom_host: 'ftp://cdn.example.com' },
      });
      assert.equal(bad.status, 400);
      assert.match(JSON.stringify(bad.body), /自定义域名/);
      const unknown = await t.json(`/api/admin/mounts/${mounts.local}`, {
        method: 'PUT',
        headers: admin,
        json: { link_policy: 'teleport' },
      });
      assert.equal(unknown.status, 400);
      assert.equal(
        (await t.json(`/api/admin/mounts/${mounts.local}`, { headers: admin })).body.data.link_policy,
        'proxy',
      );
    });

    it('direct on local disk: its own signed link (the bytes come back here), WebDAV streams', async () => {
      await setPolicy(mounts.local!, 'direct');
      const { download } = await links('/disk/dir/a b.txt');
      assert.equal((await fetchOwn(download)).text, CONTENT);
      const dav = await davGet('/disk/dir/a b.txt');
      assert.equal(dav.status, 200, 'nothing is gained by sending a client to this same server');
      await setPolicy(mounts.local!, 'proxy');
    });

    it(
      'S3: proxy streams through this server, direct sends to the bucket, shares follow',
      { skip: S3_SKIP },
      async () => {
        const bucketHost = new URL(s3Env.endpoint!).host;
        // proxy: our own link, read through the S3 driver.
        const proxied = await links('/bucket/dir/a b.txt');
        assert.notEqual(proxied.download.host, bucketHost);
        assert.equal((await fetchOwn(proxied.download)).text, CONTENT);
        assert.equal((await davGet('/bucket/dir/a b.txt')).status, 200);
        const shareOf = async (password?: string) => {
          const res = await t.json('/api/fs/create-share', {
            method: 'POST',
            headers: admin,
            json: { path: '/bucket/dir/a b.txt', ...(password ? { password } : {}) },
          });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          return res.body.data.slug as string;
        };
        const proxiedShare = await shareOf();
        const fromShare = await t.request(`/api/file-download/${proxiedShare}`, { redirect: 'manual' });
        assert.equal(fromShare.status, 200);
        assert.equal(await fromShare.text(), CONTENT);

        // direct: the bucket's presigned URL, and WebDAV redirects there.
        await setPolicy(mounts.s3!, 'direct');
        const direct = await links('/bucket/dir/a b.txt');
        assert.equal(direct.download.host, bucketHost);
        const fromBucket = await fetch(direct.download);
        assert.equal(await fromBucket.text(), CONTENT);
        const dav = await davGet('/bucket/dir/a b.txt');
        assert.equal(dav.status, 302);
        assert.equal(new URL(dav.headers.get('location')!).host, bucketHost);
        const directShare = await shareOf();
        const redirected = await t.request(`/api/file-download/${directShare}`, { redirect: 'manual' });
        assert.equal(redirected.status, 302);
        assert.equal(new URL(redirected.headers.get('location')!).host, bucketHost);
        // A protected share never hands out the bucket's URL.
        const password = `pw-${randomUUID()}`;
        const protectedShare = await shareOf(password);
        const opened = await t.request(`/api/file-download/${protectedShare}?password=${password}`, {
          redirect: 'manual',
        });
        assert.equal(opened.status, 200);
        assert.equal(await opened.text(), CONTENT);
        await setPolicy(mounts.s3!, 'proxy');
      },
    );
  });
}
