/**
 * The remote-storage story end to end, through the HTTP API only (docs/storage.md, "Storage beyond
 * S3 and local disk"): an admin adds a WebDAV (rclone serve webdav), an SFTP (OpenSSH) and an FTP
 * (pure-ftpd) storage, tests them (host key pinned, wrong key and wrong password told apart in both
 * languages), mounts them and uses each as the explorer does (list, form and relay multipart upload,
 * signed download link, Range, mkdir, rename, remove), through our WebDAV door, in copy tasks across
 * drivers, zip downloads, file and folder shares, a scheduled sync, the dashboard; and a storage
 * whose server goes away mid-download answers a clear error. On SQLite: the database plays no part.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestFtpd, type TestFtpd } from './support/ftpd.ts';
import { startTestSshd, type TestSshd } from './support/sshd.ts';
import { ADMIN, basic, bearer, createTestApp, mountLocalDisk, type TestApp } from './support/test-app.ts';
import { DAV_PASSWORD, DAV_USER, startRcloneDav, type TestWebdavServer } from './support/webdav-servers.ts';

const EN = { 'X-Cubby-Lang': 'en-US' };
const ZH = { 'X-Cubby-Lang': 'zh-CN' };
const MiB = 1024 * 1024;
const KINDS = ['webdav', 'sftp', 'ftp'] as const;
type Kind = (typeof KINDS)[number];
const MOUNT: Record<Kind, string> = { webdav: '/dav-nas', sftp: '/seedbox', ftp: '/ftp' };

const sha = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');
const q = encodeURIComponent;
const DAV_AUTH = basic(ADMIN.username, ADMIN.password);
const davHref = (p: string) => `/dav${p.split('/').map(q).join('/')}`;

describe('remote storage end to end over HTTP (sqlite)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let dav: TestWebdavServer;
  let sshd: TestSshd;
  let ftpd: TestFtpd;
  let sftpRoot: string;
  const configs = {} as Record<Kind, string>;
  const mounts = {} as Record<Kind, string>;

  before(async () => {
    [dav, sshd, ftpd, t] = await Promise.all([
      startRcloneDav(),
      startTestSshd(),
      startTestFtpd(),
      createTestApp('sqlite'),
    ]);
    sftpRoot = await sshd.makeRoot();
    t.clock.followRealTime();
    admin = bearer(await t.adminToken());
  });
  after(async () => {
    await t?.services.scheduledSync.stopAll();
    await t?.close();
    await Promise.all([dav?.close(), sshd?.close(), ftpd?.close()]);
  });

  const post = (route: string, json: unknown, headers: Record<string, string> = admin) =>
    t.json(route, { method: 'POST', headers, json });
  const get = (route: string, headers: Record<string, string> = admin) => t.json(route, { headers });
  const names = async (dir: string) => {
    const res = await get(`/api/admin/fs/list?path=${q(dir)}&refresh=true`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.data.items as Array<{ name: string }>).map((i) => i.name).sort();
  };
  const upload = async (dir: string, name: string, bytes: Uint8Array<ArrayBuffer>) => {
    const form = new FormData();
    form.append('path', dir);
    form.append('file', new Blob([bytes]), name);
    const res = await t.json('/api/admin/fs/upload', { method: 'POST', headers: admin, body: form });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const download = async (file: string, headers: Record<string, string> = {}) =>
    t.request(`/api/admin/fs/download?path=${q(file)}`, { headers: { ...admin, ...headers } });
  const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());
  /** Waits (polling its state) until a copy or move task has ended; answers it. */
  const untilTaskEnds = async (id: string) => {
    for (;;) {
      const res = await get(`/api/admin/fs/tasks/${id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      if (res.body.data.status !== 'pending' && res.body.data.status !== 'running') return res.body.data;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const storageTest = async (id: string, lang = EN) => {
    const res = await t.json(`/api/storage/${id}/test`, { method: 'POST', headers: { ...admin, ...lang } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as {
      success: boolean;
      result: { steps: Array<{ name: string; success: boolean; error?: string; note: string }> };
    };
  };
  const configBody = (kind: Kind): Record<string, unknown> =>
    kind === 'webdav'
      ? { endpoint_url: dav.url, username: DAV_USER, password: DAV_PASSWORD }
      : kind === 'sftp'
        ? {
            host: sshd.host,
            port: sshd.port,
            username: sshd.username,
            password: sshd.password,
            root: sftpRoot,
          }
        : {
            host: ftpd.host,
            port: ftpd.port,
            username: ftpd.username,
            password: ftpd.password,
            root: ftpd.root,
          };

  it('adds a WebDAV, an SFTP and an FTP storage; each storage test passes every step; the SFTP host key is pinned', async () => {
    for (const kind of KINDS) {
      const made = await post('/api/storage', {
        name: `remote ${kind}`,
        storage_type: kind.toUpperCase(),
        ...configBody(kind),
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      configs[kind] = made.body.data.id;
    }
    const before = await get(`/api/storage/${configs.sftp}`);
    assert.equal(before.body.data.host_key_fingerprint, null);
    for (const kind of KINDS) {
      const report = await storageTest(configs[kind]);
      assert.ok(report.success, `${kind}: ${JSON.stringify(report.result.steps)}`);
      assert.ok(report.result.steps.length >= 4);
      assert.ok(
        report.result.steps.every((s) => s.success),
        `${kind}: ${JSON.stringify(report.result.steps)}`,
      );
    }
    const pinned = await get(`/api/storage/${configs.sftp}`);
    assert.equal(pinned.body.data.host_key_fingerprint, sshd.hostKeyFingerprint);
  });

  it('a wrong pinned host key fails the SFTP test with the host-key message, in English and Chinese', async () => {
    const other = `SHA256:${randomBytes(32).toString('base64').slice(0, 43)}`;
    assert.notEqual(other, sshd.hostKeyFingerprint);
    const put = await t.json(`/api/storage/${configs.sftp}`, {
      method: 'PUT',
      headers: admin,
      json: { host_key_fingerprint: other },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    try {
      const en = await storageTest(configs.sftp, EN);
      assert.equal(en.success, false);
      const list = en.result.steps.find((s) => s.name === 'list')!;
      assert.equal(list.success, false);
      assert.match(list.error ?? '', /host key is not the pinned one/);
      assert.equal(
        en.result.steps.find((s) => s.name === 'write')!.note,
        'Skipped: signing in to the storage failed (see the list step)',
      );
      const zh = await storageTest(configs.sftp, ZH);
      assert.match(zh.result.steps.find((s) => s.name === 'list')!.error ?? '', /主机密钥与固定的不一致/);
      // The pin stays what the admin set: a failed test never re-pins.
      assert.equal((await get(`/api/storage/${configs.sftp}`)).body.data.host_key_fingerprint, other);
    } finally {
      const back = await t.json(`/api/storage/${configs.sftp}`, {
        method: 'PUT',
        headers: admin,
        json: { host_key_fingerprint: sshd.hostKeyFingerprint },
      });
      assert.equal(back.status, 200, JSON.stringify(back.body));
    }
  });

  it('a wrong password on each type: the failed step carries the auth reason', async () => {
    for (const kind of KINDS) {
      const made = await post('/api/storage', {
        name: `wrong ${kind}`,
        storage_type: kind.toUpperCase(),
        ...configBody(kind),
        password: 'not the password',
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const report = await storageTest(made.body.data.id);
      assert.equal(report.success, false);
      const failed = report.result.steps.find((s) => !s.success)!;
      assert.equal(failed.name, 'list', JSON.stringify(report.result.steps));
      assert.match(failed.note, /check the server address, the port, the root folder/, kind);
      // The later steps are skipped, not tried again with the refused password.
      for (const name of ['write', 'read']) {
        const step = report.result.steps.find((s) => s.name === name)!;
        assert.equal(step.note, 'Skipped: signing in to the storage failed (see the list step)', kind);
        assert.equal(step.error, undefined, `${kind} ${name}: ${step.error}`);
      }
      assert.match(failed.error ?? '', /refused the username, password or key/, `${kind}: ${failed.error}`);
      assert.doesNotMatch(JSON.stringify(report), /not the password/);
      // pure-ftpd waits seconds before refusing a password: the Chinese wording is checked on the others.
      if (kind !== 'ftp') {
        const zh = await storageTest(made.body.data.id, ZH);
        assert.match(zh.result.steps[0]!.error ?? '', /服务器拒绝了用户名、密码或密钥/);
        // Mounted, the explorer says the storage cannot be used (503), not that the caller lacks a
        // permission (403): the refusal is the storage's sign-in, whoever asks.
        const mount = await post('/api/admin/mounts', {
          name: `wrong ${kind}`,
          mount_path: `/wrong-${kind}`,
          storage_config_id: made.body.data.id,
        });
        assert.equal(mount.status, 201, JSON.stringify(mount.body));
        const listing = await get(`/api/admin/fs/list?path=${q(`/wrong-${kind}`)}&refresh=true`, {
          ...admin,
          ...EN,
        });
        assert.equal(listing.status, 503, JSON.stringify(listing.body));
        assert.equal(listing.body.error, 'STORAGE_UNAVAILABLE');
        assert.match(listing.body.message, /refused the username, password or key/);
        await t.json(`/api/admin/mounts/${mount.body.data.id}`, { method: 'DELETE', headers: admin });
      }
      assert.equal(
        (await t.json(`/api/storage/${made.body.data.id}`, { method: 'DELETE', headers: admin })).status,
        200,
      );
    }
  });

  it('mounts each; the explorer lists, uploads (form and relay multipart), links, ranges, makes folders, renames and removes', async () => {
    for (const kind of KINDS) {
      const res = await post('/api/admin/mounts', {
        name: kind,
        mount_path: MOUNT[kind],
        storage_config_id: configs[kind],
        cache_ttl: 300,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      mounts[kind] = res.body.data.id;
    }
    const root = await get('/api/admin/fs/list?path=/');
    const listed = (root.body.data.items as Array<{ name: string }>).map((i) => i.name);
    for (const kind of KINDS) assert.ok(listed.includes(MOUNT[kind].slice(1)), listed.join());

    for (const kind of KINDS) {
      const base = `${MOUNT[kind]}/explorer`;
      const small = randomBytes(100_000);
      await upload(base, 'form.bin', small);
      assert.deepEqual(await names(base), ['form.bin'], kind);

      // A big file as the explorer sends it: a relay multipart upload through this server.
      const parts = [randomBytes(5 * MiB), randomBytes(MiB + 7)];
      const whole = Buffer.concat(parts);
      const init = await post('/api/admin/fs/multipart/init', {
        path: base,
        filename: 'big.bin',
        fileSize: whole.length,
      });
      assert.equal(init.status, 200, `${kind}: ${JSON.stringify(init.body)}`);
      const { uploadId, key } = init.body.data;
      const sent = [];
      for (const [i, part] of parts.entries()) {
        const res = await t.json(
          `/api/admin/fs/multipart/part?path=${q(base)}&uploadId=${q(uploadId)}&partNumber=${i + 1}&key=${q(key)}`,
          {
            method: 'POST',
            headers: {
              ...admin,
              'Content-Type': 'application/octet-stream',
              'Content-Length': String(part.length),
            },
            body: part,
          },
        );
        assert.equal(res.status, 200, `${kind} part ${i + 1}: ${JSON.stringify(res.body)}`);
        sent.push(res.body.data);
      }
      const done = await post('/api/admin/fs/multipart/complete', { path: base, uploadId, key, parts: sent });
      assert.equal(done.status, 200, `${kind}: ${JSON.stringify(done.body)}`);
      assert.equal(done.body.data.size, whole.length);
      assert.deepEqual(await names(base), ['big.bin', 'form.bin'], kind);

      // The explorer's download link: a signed link to this server, fetched through the app.
      const info = await get(`/api/admin/fs/get?path=${q(`${base}/big.bin`)}`);
      assert.equal(info.status, 200, JSON.stringify(info.body));
      assert.equal(info.body.data.size, whole.length);
      const link = new URL(info.body.data.download_url);
      const fetched = await t.request(link.pathname + link.search);
      assert.equal(fetched.status, 200, kind);
      assert.equal(sha(await bytesOf(fetched)), sha(whole), `${kind}: the relayed upload reads back whole`);

      const ranged = await download(`${base}/big.bin`, { Range: 'bytes=5242870-5242889' });
      assert.equal(ranged.status, 206, kind);
      assert.equal(ranged.headers.get('content-range'), `bytes 5242870-5242889/${whole.length}`);
      assert.deepEqual(await bytesOf(ranged), whole.subarray(5242870, 5242890), kind);
      const form = await download(`${base}/form.bin`);
      assert.equal(form.status, 200);
      assert.equal(sha(await bytesOf(form)), sha(small));

      assert.equal((await post('/api/admin/fs/mkdir', { path: `${base}/sub` })).status, 200, kind);
      const renamed = await post('/api/admin/fs/rename', {
        oldPath: `${base}/form.bin`,
        newPath: `${base}/sub/moved.bin`,
      });
      assert.equal(renamed.status, 200, `${kind}: ${JSON.stringify(renamed.body)}`);
      assert.deepEqual(await names(`${base}/sub`), ['moved.bin'], kind);
      const removed = await t.json(`/api/admin/fs/remove?path=${q(`${base}/big.bin`)}`, {
        method: 'DELETE',
        headers: admin,
      });
      assert.equal(removed.status, 200, kind);
      assert.deepEqual(await names(base), ['sub'], kind);
      const folder = await t.json(`/api/admin/fs/remove?path=${q(`${base}/`)}`, {
        method: 'DELETE',
        headers: admin,
      });
      assert.equal(folder.status, 200, kind);
      assert.equal((await get(`/api/admin/fs/list?path=${q(base)}`)).status, 404, kind);
    }
  });

  it('our WebDAV door: PUT, GET, PROPFIND and MOVE on the SFTP and the WebDAV mount', async () => {
    const door = (method: string, file: string, headers: Record<string, string> = {}, body?: string) =>
      t.request(davHref(file), { method, headers: { ...DAV_AUTH, ...headers }, body });
    for (const kind of ['sftp', 'webdav'] as const) {
      const dir = `${MOUNT[kind]}/door`;
      assert.ok([200, 201].includes((await door('MKCOL', dir)).status), kind);
      const content = `through the door to ${kind} ${randomBytes(8).toString('hex')}`;
      const put = await door('PUT', `${dir}/note 1.txt`, { 'Content-Type': 'text/plain' }, content);
      assert.ok([201, 204].includes(put.status), `${kind} PUT ${put.status}`);
      const got = await door('GET', `${dir}/note 1.txt`);
      assert.equal(got.status, 200, kind);
      assert.equal(await got.text(), content);
      const found = await door('PROPFIND', dir, { Depth: '1' });
      assert.equal(found.status, 207, kind);
      const xml = await found.text();
      assert.match(xml, /note%201\.txt|note 1\.txt/, kind);
      assert.match(xml, new RegExp(`<D:getcontentlength>${Buffer.byteLength(content)}</D:getcontentlength>`));
      const moved = await door('MOVE', `${dir}/note 1.txt`, { Destination: davHref(`${dir}/moved.txt`) });
      assert.ok([201, 204].includes(moved.status), `${kind} MOVE ${moved.status}`);
      assert.equal((await door('GET', `${dir}/note 1.txt`)).status, 404, kind);
      assert.equal(await (await door('GET', `${dir}/moved.txt`)).text(), content);
      assert.deepEqual(await names(dir), ['moved.txt'], kind);
    }
  });

  it('copy tasks across drivers: local → SFTP → WebDAV → FTP, the bytes unchanged (sha256)', async () => {
    await mountLocalDisk(t, admin, '/disk');
    const files = { 'a.bin': randomBytes(3 * MiB + 11), 'nested/b.txt': Buffer.from('a small one\n') };
    for (const [rel, bytes] of Object.entries(files)) {
      const dir = path.posix.dirname(`/disk/chain/${rel}`);
      await upload(dir, path.posix.basename(rel), bytes);
    }
    const hops: Array<[string, string]> = [
      ['/disk/chain/', `${MOUNT.sftp}/chain/`],
      [`${MOUNT.sftp}/chain/`, `${MOUNT.webdav}/chain/`],
      [`${MOUNT.webdav}/chain/`, `${MOUNT.ftp}/chain/`],
    ];
    for (const [sourcePath, targetPath] of hops) {
      const started = await post('/api/admin/fs/tasks', { items: [{ sourcePath, targetPath }] });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      const task = await untilTaskEnds(started.body.data.id);
      assert.equal(task.status, 'done', `${sourcePath} → ${targetPath}: ${JSON.stringify(task)}`);
      for (const [rel, bytes] of Object.entries(files)) {
        const res = await download(`${targetPath}${rel}`);
        assert.equal(res.status, 200, `${targetPath}${rel}`);
        assert.equal(sha(await bytesOf(res)), sha(bytes), `${targetPath}${rel}`);
      }
    }
  });

  it('zips a folder on the SFTP mount', async () => {
    const res = await t.request(`/api/admin/fs/download-zip?path=${q(`${MOUNT.sftp}/chain`)}`, {
      headers: admin,
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get('content-type'), 'application/zip');
    const file = path.join(t.database.dataDir, 'chain.zip');
    fs.writeFileSync(file, await bytesOf(res));
    execFileSync('unzip', ['-tq', file]);
    const listed = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .sort();
    assert.deepEqual(listed, ['a.bin', 'nested/', 'nested/b.txt']);
    const inside = execFileSync('unzip', ['-p', file, 'a.bin'], { maxBuffer: 16 * MiB });
    const original = await download(`${MOUNT.sftp}/chain/a.bin`);
    assert.equal(sha(inside), sha(await bytesOf(original)));
  });

  it('a file share from the FTP mount downloads; a folder share of a WebDAV folder lists and downloads', async () => {
    const fileShare = await post('/api/fs/create-share', { path: `${MOUNT.ftp}/chain/nested/b.txt` });
    assert.equal(fileShare.status, 201, JSON.stringify(fileShare.body));
    const shared = await t.request(`/api/file-download/${fileShare.body.data.slug}`);
    assert.equal(shared.status, 200);
    assert.equal(await shared.text(), 'a small one\n');

    const folderShare = await post('/api/fs/create-share', { path: `${MOUNT.webdav}/chain` });
    assert.equal(folderShare.status, 201, JSON.stringify(folderShare.body));
    const slug = folderShare.body.data.slug as string;
    const visit = await t.json(`/api/public/folders/${slug}`);
    assert.equal(visit.status, 200, JSON.stringify(visit.body));
    const token = visit.body.data.token as string;
    const top = await t.json(`/api/public/folders/${slug}/list?path=/&token=${q(token)}`);
    assert.equal(top.status, 200, JSON.stringify(top.body));
    assert.deepEqual(top.body.data.items.map((i: { name: string }) => i.name).sort(), ['a.bin', 'nested']);
    const inner = await t.request(
      `/api/public/folders/${slug}/download?path=${q('/nested/b.txt')}&token=${q(token)}`,
    );
    assert.equal(inner.status, 200);
    assert.equal(await inner.text(), 'a small one\n');
  });

  it('a scheduled sync mirrors a local folder to the SFTP mount: dry run, run, then only the changed file', async () => {
    const jobs = '/api/admin/scheduled/jobs';
    await upload('/disk/mirror', 'one.txt', Buffer.from('one'));
    await upload('/disk/mirror', 'two.txt', Buffer.from('two'));
    await upload('/disk/mirror/deep', 'three.txt', Buffer.from('three'));
    const made = await post(jobs, {
      name: 'to the seedbox',
      scheduleType: 'interval',
      intervalSec: 3600,
      sourcePath: '/disk/mirror',
      targetPath: `${MOUNT.sftp}/mirror`,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const taskId = made.body.data.taskId as string;
    const run = async (dryRun: boolean) => {
      const res = await post(`${jobs}/${taskId}/run`, { dry_run: dryRun });
      assert.equal(res.status, dryRun ? 200 : 202, JSON.stringify(res.body));
      if (dryRun) return res.body.data;
      for (;;) {
        const runs = await get(`${jobs}/${taskId}/runs?limit=1`);
        const last = runs.body.data.items[0];
        if (last && last.id === res.body.data.id && last.status !== 'running') return last;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const target = (rel: string) => `${MOUNT.sftp}/mirror/${rel}`;
    const dry = await run(true);
    assert.equal(dry.status, 'success', JSON.stringify(dry));
    assert.deepEqual([...dry.changes.created].sort(), ['deep/three.txt', 'one.txt', 'two.txt'].map(target));
    assert.equal(fs.existsSync(path.join(sftpRoot, 'mirror')), false, 'a dry run writes nothing');

    const first = await run(false);
    assert.equal(first.status, 'success', JSON.stringify(first));
    assert.equal(first.counts.copied, 3);
    assert.equal(fs.readFileSync(path.join(sftpRoot, 'mirror/deep/three.txt'), 'utf8'), 'three');

    const changed = await post('/api/admin/fs/update', {
      path: '/disk/mirror/two.txt',
      content: 'two, changed',
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const second = await run(false);
    assert.equal(second.status, 'success', JSON.stringify(second));
    assert.deepEqual(
      { copied: second.counts.copied, updated: second.counts.updated, skipped: second.counts.skipped },
      { copied: 0, updated: 1, skipped: 2 },
    );
    assert.equal(second.counts.bytes, Buffer.byteLength('two, changed'));
    assert.equal(fs.readFileSync(path.join(sftpRoot, 'mirror/two.txt'), 'utf8'), 'two, changed');
  });

  it('the dashboard shows the bytes the SFTP storage holds', async () => {
    const held = (dir: string): number =>
      fs.readdirSync(dir, { withFileTypes: true }).reduce((n, entry) => {
        const full = path.join(dir, entry.name);
        return n + (entry.isDirectory() ? held(full) : fs.statSync(full).size);
      }, 0);
    const used = async () => {
      const res = await get('/api/admin/dashboard/stats');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const sftp = res.body.data.s3Buckets.find((b: { id: string }) => b.id === configs.sftp);
      assert.ok(sftp, JSON.stringify(res.body.data.s3Buckets));
      return sftp.usedStorage as number;
    };
    // A storage without a quota is counted by the periodic recount (src/main.ts), run here at once.
    await t.services.quota.recountAll(await t.services.storageConfigs.repo.list({ publicOnly: false }));
    assert.equal(await used(), held(sftpRoot));
    // From then on the count follows what is written through Cubby.
    await upload(`${MOUNT.sftp}/later`, 'more.bin', randomBytes(4321));
    assert.equal(await used(), held(sftpRoot));
  });

  it('the SFTP server going away mid-download ends the download with an error, answers clearly while away, and the listing is whole after', async () => {
    const big = randomBytes(24 * MiB);
    await upload(`${MOUNT.sftp}/outage`, 'big.bin', big);
    await upload(`${MOUNT.sftp}/outage`, 'small.txt', Buffer.from('small'));
    const before = await names(`${MOUNT.sftp}/outage`);
    const res = await download(`${MOUNT.sftp}/outage/big.bin`);
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    let received = (await reader.read()).value?.byteLength ?? 0;
    await sshd.stop();
    try {
      const started = Date.now();
      // The rest of the body: it must end in an error within seconds, never hang nor end short as if whole.
      const outcome = await (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return 'ended';
          received += value.byteLength;
        }
      })().catch((error: unknown) => error);
      assert.notEqual(outcome, 'ended', `a cut download must not end as if whole (${received} bytes)`);
      assert.ok(received < big.length, `${received} of ${big.length} bytes`);
      assert.ok(Date.now() - started < 20_000, 'the cut is noticed quickly');

      // While the server is away: a clear answer in the caller's language, no stack.
      const away = await t.request(`/api/admin/fs/download?path=${q(`${MOUNT.sftp}/outage/small.txt`)}`, {
        headers: { ...admin, ...EN },
      });
      const text = await away.text();
      assert.ok([502, 503, 504].includes(away.status), `${away.status} ${text}`);
      const body = JSON.parse(text);
      assert.equal(body.success, false);
      assert.equal(body.error, 'STORAGE_UNAVAILABLE');
      // Said as the storage test says it: the server cannot be reached (not an S3 endpoint or bucket).
      assert.match(body.message, /The server cannot be reached: check the host, the port and the network/);
      assert.doesNotMatch(text, /\bat \S+ \(|node:internal|\.ts:\d+/, 'no stack in the answer');
      assert.doesNotMatch(text, new RegExp(sshd.password), 'no credential in the answer');
      const listing = await get(`/api/admin/fs/list?path=${q(`${MOUNT.sftp}/outage`)}&refresh=true`);
      assert.ok([502, 503, 504].includes(listing.status), JSON.stringify(listing.body));
    } finally {
      await sshd.start();
    }
    assert.deepEqual(await names(`${MOUNT.sftp}/outage`), before);
    const again = await download(`${MOUNT.sftp}/outage/big.bin`);
    assert.equal(again.status, 200);
    assert.equal(sha(await bytesOf(again)), sha(big), 'the file is whole after the restart');
  });
});
