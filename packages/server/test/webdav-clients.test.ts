/**
 * Real WebDAV clients against the real server process, on a mount on local disk and one on radosgw:
 * the litmus suites (basic, copymove, props, locks, http — every test must pass, as with Apache
 * mod_dav) with the admin's credentials and with an API key; rclone copying, syncing, checking and
 * deleting a tree of 300 files with nested, Unicode and spaced names plus a 1 GiB file; and a
 * scripted cadaver session. litmus, rclone and cadaver come from Debian (.ci/run installs them).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createBucket, deleteBucket, S3_SKIP, s3AdminClient, s3Env } from './support/s3.ts';
import { freePort, type RunningProcess, startServer, waitFor } from './support/server-process.ts';

const run = promisify(execFile);
// No spaces: cadaver reads it from a .netrc, whose fields are split at whitespace.
const PASSWORD = 'webdav-clients-test';
const tools = ['litmus', 'rclone', 'cadaver'];
const missing = tools.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

describe('WebDAV with real clients (server process)', () => {
  let server: RunningProcess;
  let base: string;
  let token: string;
  const keys = new Map<string, string>();
  let bucket: string | undefined;
  const s3 = S3_SKIP ? undefined : s3AdminClient();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-davc-'));
  const stores = S3_SKIP ? ['local'] : ['local', 's3'];

  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: Record<string, string> };
    assert.ok(res.ok, `${method} ${url} → ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const mkcol = async (davPath: string) => {
    const res = await fetch(`${base}/dav${davPath}`, {
      method: 'MKCOL',
      headers: { Authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` },
    });
    assert.equal(res.status, 201);
  };

  before(async () => {
    assert.deepEqual(missing, [], `install ${missing.join(', ')} (apt-get install ${missing.join(' ')})`);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = startServer({
      DATA_DIR: path.join(dir, 'data'),
      PORT: String(port),
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
    });
    await waitFor(server, (out) => out.includes('Cubby is serving'));
    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    token = ((await login.json()) as { data: { token: string } }).data.token;
    const local = await api('POST', '/api/s3-configs', {
      name: 'disk',
      provider_type: 'Local',
      root_path: path.join(dir, 'store'),
    });
    await api('POST', '/api/admin/mounts', {
      name: 'local',
      mount_path: '/local',
      storage_config_id: local.id,
    });
    if (s3) {
      bucket = await createBucket(s3, 'cubby-davc');
      const remote = await api('POST', '/api/s3-configs', {
        name: 'rgw',
        provider_type: 'Other S3 Compatible',
        endpoint_url: s3Env.endpoint,
        bucket_name: bucket,
        region: s3Env.region,
        path_style: true,
        access_key_id: s3Env.accessKeyId,
        secret_access_key: s3Env.secretAccessKey,
      });
      await api('POST', '/api/admin/mounts', { name: 's3', mount_path: '/s3', storage_config_id: remote.id });
    }
    await api('PUT', '/api/admin/system-settings', { max_upload_size: 2, max_upload_size_unit: 'GB' });
    for (const store of stores) await mkcol(`/${store}/team`);
    // One key per store, confined to that store's team folder.
    for (const store of stores) {
      const made = await api('POST', '/api/admin/api-keys', {
        name: `dav-${store}`,
        mount_permission: true,
        basic_path: `/${store}/team`,
        expires_at: 'never',
      });
      keys.set(store, made.key!);
    }
  });
  after(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    if (bucket) await deleteBucket(s3!, bucket);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const store of stores) {
    for (const who of ['admin', 'key'] as const) {
      it(`litmus passes every test on ${store} with the ${who === 'admin' ? "admin's password" : 'API key'}`, async () => {
        const cwd = fs.mkdtempSync(path.join(dir, 'litmus-'));
        const [user, pass] = who === 'admin' ? ['admin', PASSWORD] : [keys.get(store)!, keys.get(store)!];
        const url = `${base}/dav/${store}/team/${who}/`;
        await mkcol(`/${store}/team/${who}`);
        const { stdout } = await run('litmus', ['-k', url, user, pass], { cwd, maxBuffer: 16 << 20 });
        const summaries = stdout.split('\n').filter((line) => line.startsWith('<- summary'));
        assert.deepEqual(
          summaries.map((line) => /for `(\w+)'/.exec(line)?.[1]),
          ['basic', 'copymove', 'props', 'locks', 'http'],
          stdout,
        );
        for (const line of summaries) assert.match(line, /, 0 failed\. 100\.0%$/, `${line}\n${stdout}`);
        assert.doesNotMatch(stdout, /WARNING/, stdout);
      });
    }
  }

  /** rclone against /dav with an inline remote (no config file). */
  const rclone = async (args: string[], timeout = 600_000) => {
    const obscured = (await run('rclone', ['obscure', PASSWORD])).stdout.trim();
    const remote = `:webdav,url='${base}/dav',vendor=other,user=admin,pass=${obscured}:`;
    const expanded = args.map((a) => (a.startsWith('dav:') ? remote + a.slice(4) : a));
    return run('rclone', [...expanded, '--retries', '1'], {
      timeout,
      maxBuffer: 64 << 20,
      env: { PATH: process.env.PATH ?? '', RCLONE_CONFIG: '/dev/null', HOME: dir },
    });
  };

  /** 300 files in nested folders, with Unicode, spaces and signs in their names. */
  const makeTree = (root: string) => {
    const folders = ['', 'docs', 'docs/报告 2026', 'photos/旅行 #1', 'photos/旅行 #1/day 2', "odd & 'names'"];
    for (let i = 0; i < 300; i++) {
      const folder = path.join(root, folders[i % folders.length]!);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(
        path.join(folder, `文件 ${i} + copy (${i % 7}).txt`),
        `content ${i}\n`.repeat(1 + (i % 13)),
      );
    }
  };

  for (const store of stores) {
    it(`rclone copies, checks, syncs and deletes a tree of 300 files on ${store}`, async () => {
      const tree = path.join(dir, `tree-${store}`);
      makeTree(tree);
      const target = `dav:${store}/rclone`;
      await rclone(['copy', tree, target, '--transfers', '8']);
      await rclone(['check', tree, target, '--download']);
      // Change the tree: some files gone, some new, some rewritten; sync makes the remote the same.
      const files = fs.readdirSync(tree, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      for (const e of files.slice(0, 10)) fs.rmSync(path.join(e.parentPath, e.name));
      for (const e of files.slice(10, 15))
        fs.writeFileSync(path.join(e.parentPath, e.name), 'rewritten, longer than before\n');
      fs.mkdirSync(path.join(tree, 'new folder'));
      for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(tree, 'new folder', `新 ${i}.txt`), `new ${i}`);
      await rclone(['sync', tree, target, '--transfers', '8']);
      const check = await rclone(['check', tree, target, '--download']);
      assert.match(check.stderr, /0 differences found/);
      assert.match(check.stderr, /295 matching files/);
      await rclone(['purge', target]);
      const listed = await fetch(`${base}/api/admin/fs/list?path=/${store}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const names = ((await listed.json()) as { data: { items: Array<{ name: string }> } }).data.items.map(
        (i) => i.name,
      );
      assert.ok(!names.includes('rclone'), JSON.stringify(names));
    });
  }

  it(`rclone copies a 1 GiB file in and out unchanged (${stores.at(-1)})`, async () => {
    const big = path.join(dir, 'big');
    fs.mkdirSync(big);
    const file = path.join(big, 'one gib.bin');
    // Random bytes (1 MiB blocks, each different) so a misplaced block cannot go unnoticed.
    const out = fs.openSync(file, 'w');
    const hash = createHash('sha256');
    for (let i = 0; i < 1024; i++) {
      const block = Buffer.alloc(1 << 20);
      createHash('sha512').update(String(i)).digest().copy(block);
      block.writeUInt32LE(i, 100);
      for (let j = 64; j < block.length; j += 4096) block.writeUInt32LE((i * 2654435761 + j) >>> 0, j);
      hash.update(block);
      fs.writeSync(out, block);
    }
    fs.closeSync(out);
    const expected = hash.digest('hex');
    const target = `dav:${stores.at(-1)}/big`;
    await rclone(['copy', big, target]);
    await rclone(['check', big, target]);
    const read = createHash('sha256');
    const obscured = (await run('rclone', ['obscure', PASSWORD])).stdout.trim();
    const cat = spawn(
      'rclone',
      [
        'cat',
        `:webdav,url='${base}/dav',vendor=other,user=admin,pass=${obscured}:${stores.at(-1)}/big/one gib.bin`,
      ],
      { env: { PATH: process.env.PATH ?? '', RCLONE_CONFIG: '/dev/null', HOME: dir } },
    );
    for await (const chunk of cat.stdout) read.update(chunk as Buffer);
    assert.equal(read.digest('hex'), expected);
    await rclone(['purge', target]);
    fs.rmSync(big, { recursive: true, force: true });
  });

  it('cadaver: mkcol, put, get, move, copy, lock, unlock, delete', async () => {
    const home = fs.mkdtempSync(path.join(dir, 'cadaver-'));
    fs.writeFileSync(path.join(home, '.netrc'), `machine 127.0.0.1\nlogin admin\npassword ${PASSWORD}\n`, {
      mode: 0o600,
    });
    fs.writeFileSync(path.join(home, 'hello.txt'), 'hello from cadaver\n');
    const script = [
      'mkcol cad',
      'put hello.txt cad/hello.txt',
      'get cad/hello.txt back.txt',
      'move cad/hello.txt cad/moved.txt',
      'copy cad/moved.txt cad/copy.txt',
      'lock cad/copy.txt',
      'unlock cad/copy.txt',
      'delete cad/moved.txt',
      'ls cad',
      'quit',
    ].join('\n');
    const child = spawn('cadaver', [`${base}/dav/local/`], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home },
    });
    child.stdin.end(`${script}\n`);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(fs.readFileSync(path.join(home, 'back.txt'), 'utf8'), 'hello from cadaver\n', output);
    assert.doesNotMatch(output, /failed/i, output);
    assert.match(output, /copy\.txt/, output);
    assert.doesNotMatch(output.slice(output.lastIndexOf('ls cad')), /moved\.txt/, output);
    const res = await fetch(`${base}/dav/local/cad/copy.txt`, {
      headers: { Authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` },
    });
    assert.equal(await res.text(), 'hello from cadaver\n');
  });
});
