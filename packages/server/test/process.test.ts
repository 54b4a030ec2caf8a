/**
 * The real server process: first start prints the admin login once, the secret is kept with 0600
 * permissions, idle keep-alive connections outlive Node's 5 s default, SIGTERM lets an in-flight
 * request finish, and the reset-password command works.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  COMPILED_MAIN,
  COMPILED_RESET_PASSWORD,
  RESET_PASSWORD,
  ensureServerBuild,
  freePort,
  runScript,
  startServer,
  waitFor,
} from './support/server-process.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-proc-'));
  dirs.push(dir);
  return dir;
};
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function login(port: number, username: string, password: string) {
  const res = await fetch(`http://127.0.0.1:${port}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return res.status;
}

describe('server process', () => {
  it('creates admin with a random password printed once, keeps a 0600 secret, and serves health', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
    const first = startServer(env);
    await waitFor(first, (out) => out.includes('Cubby is serving'));
    const password = /password: (\S+)/.exec(first.stdout())?.[1];
    assert.ok(password && password.length >= 16, first.stdout());
    // Last and framed: after the line that says where Cubby serves, inside a box whose every line
    // is as wide as the others, with where to sign in.
    const out = first.stdout();
    const box = out
      .slice(out.indexOf('Cubby is serving'))
      .split('\n')
      .filter((l) => /^[┌│└]/.test(l));
    assert.ok(box.length >= 5 && box[0]!.startsWith('┌') && box.at(-1)!.startsWith('└'), out);
    assert.ok(
      box.some((l) => l.includes(`password: ${password}`)),
      out,
    );
    assert.ok(
      box.some((l) => l.includes(`http://127.0.0.1:${port}/admin`)),
      out,
    );
    assert.equal(new Set(box.map((l) => [...l].length)).size, 1, out);
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/health`)).status, 200);
    assert.equal(await login(port, 'admin', password), 200);
    assert.equal(fs.statSync(path.join(dataDir, 'secret.key')).mode & 0o777, 0o600);
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);

    const second = startServer(env);
    await waitFor(second, (out) => out.includes('Cubby is serving'));
    assert.ok(!second.stdout().includes('password:'), 'the password is printed only on first start');
    assert.equal(await login(port, 'admin', password), 200);
    second.child.kill('SIGTERM');
    await second.exited;
  });

  it('serves the web app from WEB_DIST_DIR when it is set', async () => {
    const dist = tempDir();
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>from WEB_DIST_DIR</title>');
    const port = await freePort();
    const proc = startServer({
      DATA_DIR: tempDir(),
      PORT: String(port),
      WEB_DIST_DIR: dist,
      ADMIN_PASSWORD: 'long-enough',
    });
    await waitFor(proc, (out) => out.includes('Cubby is serving'));
    const res = await fetch(`http://127.0.0.1:${port}/paste/abc`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /from WEB_DIST_DIR/);
    proc.child.kill('SIGTERM');
    await proc.exited;
  });

  it('keeps an idle keep-alive connection past the 5 s that Node closes it after by default', async () => {
    const port = await freePort();
    const proc = startServer({ DATA_DIR: tempDir(), PORT: String(port), ADMIN_PASSWORD: 'long-enough' });
    await waitFor(proc, (out) => out.includes('Cubby is serving'));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = http.get(`http://127.0.0.1:${port}/api/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
        });
        req.on('error', reject);
      });
    assert.deepEqual(await get(), { status: 200, reused: false });
    await new Promise((resolve) => setTimeout(resolve, 6500));
    assert.deepEqual(await get(), { status: 200, reused: true });
    agent.destroy();
    proc.child.kill('SIGTERM');
    await proc.exited;
  });

  it('uses ADMIN_USERNAME/ADMIN_PASSWORD on first start and never prints them', async () => {
    const port = await freePort();
    const proc = startServer({
      DATA_DIR: tempDir(),
      PORT: String(port),
      ADMIN_USERNAME: 'owner',
      ADMIN_PASSWORD: 'from-the-environment',
    });
    await waitFor(proc, (out) => out.includes('Cubby is serving'));
    assert.equal(await login(port, 'owner', 'from-the-environment'), 200);
    proc.child.kill('SIGTERM');
    await proc.exited;
    assert.ok(!proc.stdout().includes('from-the-environment'));
    assert.ok(!proc.stderr().includes('from-the-environment'));
  });

  it('on SIGTERM stops accepting but finishes the request in flight, then exits 0', async () => {
    const port = await freePort();
    const proc = startServer({
      DATA_DIR: tempDir(),
      PORT: String(port),
      ADMIN_PASSWORD: 'in-flight-password',
      LOG_LEVEL: 'info',
    });
    await waitFor(proc, (out) => out.includes('Cubby is serving'));
    const body = JSON.stringify({ username: 'admin', password: 'in-flight-password' });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/admin/login',
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // half the body now, the rest after the signal
      req.write(body.slice(0, 10));
      setTimeout(() => {
        proc.child.kill('SIGTERM');
        waitFor(proc, (out) => out.includes('shutting down'))
          .then(() => req.end(body.slice(10)))
          .catch(reject);
      }, 200);
    });
    const { status, text } = await answer;
    assert.equal(status, 200, text);
    assert.ok(JSON.parse(text).data.token);
    assert.equal(await proc.exited, 0);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/api/health`), 'no longer accepting');
  });

  it('on SIGTERM drains: health says draining, no new connection, the upload in flight is stored', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), ADMIN_PASSWORD: 'drain-password' };
    const proc = startServer(env);
    await waitFor(proc, (out) => out.includes('Cubby is serving'));
    const res = await fetch(`http://127.0.0.1:${port}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'drain-password' }),
    });
    const token = ((await res.json()) as { data: { token: string } }).data.token;
    // A keep-alive connection, idle when the signal comes.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const health = () =>
      new Promise<{ status: number; body: { status: string }; connection?: string; reused: boolean }>(
        (resolve, reject) => {
          const req = http.get(`http://127.0.0.1:${port}/api/health`, { agent }, (r) => {
            let text = '';
            r.on('data', (d) => (text += d));
            r.on('end', () =>
              resolve({
                status: r.statusCode ?? 0,
                body: JSON.parse(text),
                connection: r.headers.connection,
                reused: req.reusedSocket,
              }),
            );
          });
          req.on('error', reject);
        },
      );
    assert.equal((await health()).status, 200);

    // An upload whose body is still coming when the signal arrives (the server has asked for it).
    const chunk = Buffer.alloc(256 * 1024, 'cubby ');
    const chunks = 16;
    const upload = http.request({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: '/api/upload-direct/drained.txt?slug=drained-upload',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Length': String(chunk.length * chunks),
        Expect: '100-continue',
      },
    });
    const uploaded = new Promise<{ status: number; text: string }>((resolve, reject) => {
      upload.on('response', (r) => {
        let text = '';
        r.on('data', (d) => (text += d));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, text }));
      });
      upload.on('error', reject);
    });
    await new Promise((resolve) => upload.once('continue', resolve));
    upload.write(chunk);

    proc.child.kill('SIGTERM');
    await waitFor(proc, (out) => out.includes('shutting down'));
    const draining = await health();
    assert.equal(draining.status, 503);
    assert.equal(draining.body.status, 'draining');
    assert.equal(draining.reused, true, 'asked over the connection opened before the signal');
    assert.equal(draining.connection, 'close', 'that connection ends after the answer');
    // Reads on new connections are refused with 503 (a balancer retries them elsewhere) until no new
    // connection came for a moment; then the listener closes.
    const read = await fetch(`http://127.0.0.1:${port}/api/version`).catch(() => undefined);
    if (read) assert.equal(read.status, 503);
    await waitFor(proc, (out) => out.includes('no longer accepting connections'));
    await assert.rejects(
      new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => resolve(socket.destroy()));
        socket.on('error', reject);
      }),
      /ECONNREFUSED|ECONNRESET/,
      'a new connection is refused',
    );
    for (let i = 1; i < chunks; i++) upload.write(chunk);
    upload.end();
    const { status, text } = await uploaded;
    assert.equal(status, 200, text);
    assert.equal(await proc.exited, 0);
    agent.destroy();

    // Stored: the next start serves it, byte for byte.
    const again = startServer(env);
    await waitFor(again, (out) => out.includes('Cubby is serving'));
    const file = await fetch(`http://127.0.0.1:${port}/api/file-download/drained-upload`);
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), Buffer.concat(Array(chunks).fill(chunk)));
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0);
  });

  it('on SIGTERM does not wait for a connection that is closing lingering', async () => {
    const port = await freePort();
    const proc = startServer({ DATA_DIR: tempDir(), PORT: String(port), ADMIN_PASSWORD: 'long-enough' });
    await waitFor(proc, (out) => out.includes('Cubby is serving'));
    // A body over the JSON limit, still being sent: the 413 goes out and the server keeps reading.
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const answered = new Promise<string>((resolve) => socket.once('data', (d) => resolve(String(d))));
    socket.write(
      'POST /api/admin/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${100 * 1024 * 1024}\r\n\r\n`,
    );
    const feed = setInterval(() => socket.writable && socket.write(Buffer.alloc(1024, 32)), 50);
    assert.match(await answered, /^HTTP\/1.1 413/);
    const started = Date.now();
    proc.child.kill('SIGTERM');
    assert.equal(await proc.exited, 0);
    assert.ok(Date.now() - started < 5000, `stopped after ${Date.now() - started} ms`);
    clearInterval(feed);
    socket.destroy();
  });

  it('npm run admin:reset-password sets a new password (given or printed) and revokes sessions', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const server = startServer({
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PASSWORD: 'forgotten-password',
    });
    await waitFor(server, (out) => out.includes('Cubby is serving'));
    const res = await fetch(`http://127.0.0.1:${port}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'forgotten-password' }),
    });
    const token = ((await res.json()) as { data: { token: string } }).data.token;

    const printed = runScript(RESET_PASSWORD, { DATA_DIR: dataDir });
    assert.equal(await printed.exited, 0, printed.stderr());
    const newPassword = /New password: (\S+)/.exec(printed.stdout())?.[1];
    assert.ok(newPassword);
    assert.equal(await login(port, 'admin', 'forgotten-password'), 401);
    assert.equal(await login(port, 'admin', newPassword), 200);
    const check = await fetch(`http://127.0.0.1:${port}/api/test/admin-token`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.equal(check.status, 401, 'old sessions are revoked');

    const given = runScript(RESET_PASSWORD, { DATA_DIR: dataDir, ADMIN_PASSWORD: 'chosen-by-owner' });
    assert.equal(await given.exited, 0);
    assert.ok(!given.stdout().includes('chosen-by-owner'));
    assert.equal(await login(port, 'admin', 'chosen-by-owner'), 200);

    const nobody = runScript(RESET_PASSWORD, { DATA_DIR: dataDir, ADMIN_USERNAME: 'nobody' });
    assert.equal(await nobody.exited, 1);
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('runs compiled with plain node: migrates, knows its version, and its reset-password works', async () => {
    await ensureServerBuild();
    const dataDir = tempDir();
    const port = await freePort();
    const proc = runScript(COMPILED_MAIN, {
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PASSWORD: 'compiled-1',
    });
    await waitFor(proc, (out) => out.includes('Cubby is serving'));
    const root = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    const version = await fetch(`http://127.0.0.1:${port}/api/version`);
    assert.equal(((await version.json()) as { data: { version: string } }).data.version, root.version);
    assert.equal(await login(port, 'admin', 'compiled-1'), 200, 'the schema is there');
    const reset = runScript(COMPILED_RESET_PASSWORD, { DATA_DIR: dataDir, ADMIN_PASSWORD: 'compiled-2' });
    assert.equal(await reset.exited, 0, reset.stderr());
    assert.equal(await login(port, 'admin', 'compiled-2'), 200);
    proc.child.kill('SIGTERM');
    assert.equal(await proc.exited, 0);
  });
});
