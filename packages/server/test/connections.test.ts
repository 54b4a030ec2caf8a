/**
 * How connections end, on real sockets (the real server process, and the app served by
 * src/http/node-server.ts as main.ts serves it, for the cases that need short limits): an answer sent before the body has fully arrived says `Connection: close` and the
 * client can still read it (lingering close), a connection whose body was read stays usable, a JSON
 * body that trickles in gets 408, and a streamed upload that stalls is cut off and leaves nothing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import type { Server } from 'node:http';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import nodePath from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serveApp } from '../src/http/node-server.ts';
import { endlessStream } from './storage/contract.ts';
import { freePort, type RunningProcess, startServer, waitFor } from './support/server-process.ts';
import { apiKey, bearer, createTestApp, ADMIN, type TestApp } from './support/test-app.ts';

const MiB = 1024 * 1024;

interface Served {
  t: TestApp;
  port: number;
  origin: string;
  close(): Promise<void>;
}

/** The app on a real port, with the given environment (short body limits). */
async function served(env: Record<string, string> = {}): Promise<Served> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp('sqlite', { PUBLIC_URL: origin, ...env });
  let server!: Server;
  await new Promise<void>((resolve) => {
    server = serveApp({ fetch: t.fetch, port, hostname: '127.0.0.1' }, () => resolve());
  });
  return {
    t,
    port,
    origin,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from the request's start to the answer's head. */
  answeredAfter: number;
  /** The server closed its side (FIN). */
  ended: Promise<void>;
  /** The connection is gone; resolves with the socket error, if there was one. */
  closed: Promise<Error | undefined>;
  socket: net.Socket;
}

/**
 * Sends `head` on a new connection, then lets `feed` write the body as it likes, and resolves with
 * the answer once it has fully arrived (whatever `feed` is still doing).
 */
function rawRequest(port: number, head: string, feed: (socket: net.Socket) => void): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = performance.now();
    let received = Buffer.alloc(0);
    let error: Error | undefined;
    let answeredAfter = 0;
    const ended = new Promise<void>((r) => socket.once('end', r));
    const closed = new Promise<Error | undefined>((r) => socket.once('close', () => r(error)));
    socket.on('error', (e) => (error = e));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) return;
      const lines = received.subarray(0, split).toString().split('\r\n');
      const status = Number(lines[0]!.split(' ')[1]);
      if (status === 100) {
        received = received.subarray(split + 4);
        return;
      }
      answeredAfter ||= performance.now() - started;
      const headers = Object.fromEntries(
        lines
          .slice(1)
          .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const body = received.subarray(split + 4);
      if (body.length < Number(headers['content-length'] ?? 0)) return;
      socket.removeAllListeners('data');
      socket.resume();
      resolve({ status, headers, body: body.toString(), answeredAfter, ended, closed, socket });
    });
    socket.once('close', () => reject(new Error(`closed before an answer: ${error?.message ?? 'no error'}`)));
    socket.write(head.replaceAll('\n', '\r\n') + '\r\n\r\n');
    feed(socket);
  });
}

/** Writes `total` bytes in `chunk`-sized pieces, one every `everyMs`, until done or the socket closes. */
function trickle(socket: net.Socket, total: number, chunk: number, everyMs: number): Promise<void> {
  return new Promise((resolve) => {
    let sent = 0;
    const timer = setInterval(() => {
      if (sent >= total || socket.destroyed || !socket.writable) {
        clearInterval(timer);
        return resolve();
      }
      const n = Math.min(chunk, total - sent);
      sent += n;
      socket.write(Buffer.alloc(n, 0x20));
    }, everyMs);
  });
}

const loginJson = JSON.stringify({ username: ADMIN.username, password: ADMIN.password });

describe('connections', () => {
  describe('on the real server process', () => {
    let proc: RunningProcess;
    let port: number;
    let origin: string;
    let admin: Record<string, string>;
    let team: string;
    let dataDir: string;
    before(async () => {
      dataDir = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'cubby-conn-'));
      port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      proc = startServer({ DATA_DIR: dataDir, PORT: String(port), ADMIN_PASSWORD: ADMIN.password });
      await waitFor(proc, (out) => out.includes('Cubby is serving'));
      const login = await fetch(`${origin}/api/admin/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: loginJson,
      });
      admin = bearer(((await login.json()) as { data: { token: string } }).data.token);
      const key = await fetch(`${origin}/api/admin/api-keys`, {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: 'team',
          file_permission: true,
          basic_path: '/team',
          expires_at: 'never',
        }),
      });
      team = ((await key.json()) as { data: { key: string } }).data.key;
    });
    after(async () => {
      proc.child.kill('SIGTERM');
      await proc.exited;
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    const storedFiles = async (): Promise<string[]> => {
      const root = nodePath.join(dataDir, 'storage');
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isFile()).map((e) => nodePath.join(e.parentPath, e.name));
    };

    it('answers a JSON body over the limit with 413 and Connection: close, and the client reads it', async () => {
      const answer = await rawRequest(
        port,
        `POST /api/admin/login HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: ${2 * MiB}`,
        // Slower than the 500 ms the adapter alone would drain before closing.
        (socket) => void trickle(socket, 2 * MiB, 64 * 1024, 25),
      );
      assert.equal(answer.status, 413);
      assert.equal(answer.headers.connection, 'close');
      assert.equal(JSON.parse(answer.body).error, 'PAYLOAD_TOO_LARGE');
      await answer.ended;
      assert.equal(await answer.closed, undefined, 'no reset while the client was still sending');
    });

    it('lets Node fetch read a 413 for a large JSON body', async () => {
      const res = await fetch(`${origin}/api/paste`, {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'x'.repeat(12 * MiB) }),
      });
      assert.equal(res.status, 413);
      assert.equal(res.headers.get('connection'), 'close');
      assert.equal(((await res.json()) as { error: string }).error, 'PAYLOAD_TOO_LARGE');
    });

    it('lets Node fetch read the 403 of a refused form upload while it is still sending the file', async () => {
      const files = await storedFiles();
      const boundary = 'cubby-boundary';
      const size = 24 * MiB;
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\n/elsewhere\r\n` +
                `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`,
            ),
          );
        },
        pull(controller) {
          if (sent >= size) {
            controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
            controller.close();
            return;
          }
          sent += 64 * 1024;
          controller.enqueue(new Uint8Array(64 * 1024));
        },
      });
      const res = await fetch(`${origin}/api/upload`, {
        method: 'POST',
        headers: { ...apiKey(team), 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit);
      assert.equal(res.status, 403);
      assert.equal(res.headers.get('connection'), 'close');
      assert.equal(((await res.json()) as { error: string }).error, 'FORBIDDEN');
      assert.deepEqual(await storedFiles(), files, 'nothing written');
    });

    it('keeps a connection alive after a request whose body was read', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const login = () =>
        new Promise<{ status: number; reused: boolean; connection: string | undefined }>(
          (resolve, reject) => {
            const req = http.request(
              `${origin}/api/admin/login`,
              { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } },
              (res) => {
                res.resume();
                res.on('end', () =>
                  resolve({
                    status: res.statusCode ?? 0,
                    reused: req.reusedSocket,
                    connection: res.headers.connection,
                  }),
                );
              },
            );
            req.on('error', reject);
            req.end(loginJson);
          },
        );
      assert.deepEqual(await login(), { status: 200, reused: false, connection: 'keep-alive' });
      assert.deepEqual(await login(), { status: 200, reused: true, connection: 'keep-alive' });
      agent.destroy();
    });

    it('takes `curl -T file` on upload-direct, and a refused one never sends its body', async () => {
      const file = nodePath.join(dataDir, 'report.pdf');
      const content = Buffer.alloc(3 * MiB + 17, 7);
      await fs.writeFile(file, content);
      const curl = (url: string) =>
        new Promise<{ status: number; uploaded: number; body: string }>((resolve, reject) => {
          execFile(
            'curl',
            [
              '-sS',
              '-T',
              file,
              '-H',
              `Authorization: ApiKey ${team}`,
              '-w',
              '\n%{http_code} %{size_upload}',
              url,
            ],
            (error, stdout) => {
              if (error) return reject(error);
              const lines = stdout.trimEnd().split('\n');
              const [status, uploaded] = lines.pop()!.split(' ').map(Number);
              resolve({ status: status!, uploaded: uploaded!, body: lines.join('\n') });
            },
          );
        });
      const done = await curl(`${origin}/api/upload-direct/report.pdf?slug=by-curl`);
      assert.equal(done.status, 200, done.body);
      const share = JSON.parse(done.body).data;
      assert.equal(share.filename, 'report.pdf');
      assert.equal(share.size, content.length);
      const download = await fetch(share.downloadUrl);
      assert.ok(Buffer.from(await download.arrayBuffer()).equals(content), 'the same bytes come back');

      const files = await storedFiles();
      const refused = await curl(`${origin}/api/upload-direct/report.pdf?path=/elsewhere`);
      assert.equal(refused.status, 403, refused.body);
      assert.equal(refused.uploaded, 0, 'curl waited for 100 Continue and sent nothing');
      assert.deepEqual(await storedFiles(), files);
    });

    it('answers Expect: 100-continue with the refusal when the headers already decide it', async () => {
      const answer = await rawRequest(
        port,
        `POST /api/admin/login HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: ${5 * MiB}\nExpect: 100-continue`,
        () => undefined,
      );
      assert.equal(answer.status, 413);
      assert.equal(answer.headers.connection, 'close');
      answer.socket.destroy();
    });
  });

  describe('with short body limits', () => {
    let s: Served;
    let admin: Record<string, string>;
    let storageRoot: string;
    before(async () => {
      s = await served({
        BODY_TIMEOUT_SECONDS: '0.5',
        UPLOAD_MIN_KIB: '64',
        UPLOAD_RATE_WINDOW_SECONDS: '0.4',
      });
      admin = bearer(await s.t.adminToken());
      const config = await s.t.services.storageConfigs.repo.findDefault();
      storageRoot = JSON.parse(config!.settings).root_path;
    });
    after(() => s.close());

    const storedFiles = async (): Promise<string[]> => {
      const entries = await fs.readdir(storageRoot, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isFile()).map((e) => nodePath.join(e.parentPath, e.name));
    };
    const pendingRows = async () =>
      (
        await s.t.database.db.kysely
          .selectFrom('files')
          .select('id')
          .where('status', '=', 'pending')
          .execute()
      ).length;

    it('never reads a body its headers already refuse', async () => {
      const { body, pulled } = endlessStream();
      const res = await s.t.request('/api/admin/api-keys', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      assert.equal(res.status, 401);
      assert.ok(pulled() <= 1, `read ${pulled()} chunks`);
      await body.cancel().catch(() => undefined);
    });

    it('answers a login body that trickles in with 408 once the deadline has passed', async () => {
      const answer = await rawRequest(
        s.port,
        `POST /api/admin/login HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: ${loginJson.length}`,
        (socket) => void trickle(socket, loginJson.length - 1, 1, 100),
      );
      assert.equal(answer.status, 408);
      assert.equal(answer.headers.connection, 'close');
      assert.equal(JSON.parse(answer.body).error, 'REQUEST_TIMEOUT');
      assert.ok(answer.answeredAfter >= 450, `answered after ${answer.answeredAfter} ms`);
      await answer.ended;
    });

    const formHead = (boundary: string) =>
      `POST /api/upload HTTP/1.1\nHost: x\nAuthorization: ${admin.Authorization}\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\nTransfer-Encoding: chunked`;
    const chunked = (data: Buffer | string) => {
      const bytes = Buffer.from(data);
      return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    };
    const filePart = (boundary: string, name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="slug"\r\n\r\nstalled-${name}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}.bin"\r\n\r\n`;

    it('cuts off a form upload that stalls, and keeps neither bytes nor a pending row', async () => {
      const files = await storedFiles();
      const answer = await rawRequest(s.port, formHead('b1'), (socket) => {
        socket.write(chunked(filePart('b1', 'stall')));
        socket.write(chunked(Buffer.alloc(200 * 1024, 1)));
        // …and then nothing more.
      });
      assert.equal(answer.status, 408);
      assert.equal(answer.headers.connection, 'close');
      assert.equal(JSON.parse(answer.body).error, 'REQUEST_TIMEOUT');
      await answer.ended;
      answer.socket.destroy();
      assert.deepEqual(await storedFiles(), files, 'no temp file left');
      assert.equal(await pendingRows(), 0);
      const slug = await s.t.json('/api/public/files/stalled-stall');
      assert.equal(slug.status, 404);
    });

    it('lets a slow but steady upload finish', async () => {
      const answer = await rawRequest(s.port, formHead('b2'), (socket) => {
        socket.write(chunked(filePart('b2', 'steady')));
        let rounds = 0;
        const timer = setInterval(() => {
          if (++rounds > 8) {
            clearInterval(timer);
            socket.write(chunked(`\r\n--b2--\r\n`));
            socket.write('0\r\n\r\n');
            return;
          }
          socket.write(chunked(Buffer.alloc(40 * 1024, 2)));
        }, 150);
      });
      assert.equal(answer.status, 200, answer.body);
      assert.equal(JSON.parse(answer.body).data.size, 8 * 40 * 1024);
      assert.notEqual(answer.headers.connection, 'close');
      answer.socket.destroy();
    });

    it('cuts off an upload-direct body that stalls, leaving neither bytes nor a pending row', async () => {
      const files = await storedFiles();
      const answer = await rawRequest(
        s.port,
        `PUT /api/upload-direct/stalled.bin?slug=stalled-direct HTTP/1.1\nHost: x\n` +
          `Authorization: ${admin.Authorization}\nContent-Length: ${MiB}`,
        (socket) => socket.write(Buffer.alloc(200 * 1024, 4)),
      );
      assert.equal(answer.status, 408);
      assert.equal(answer.headers.connection, 'close');
      await answer.ended;
      answer.socket.destroy();
      assert.deepEqual(await storedFiles(), files);
      assert.equal(await pendingRows(), 0);
    });

    it('cuts off a PUT to a local presigned URL that stalls, leaving no file', async () => {
      const size = 300 * 1024;
      const presign = await s.t.json('/api/s3/presign', {
        method: 'POST',
        headers: admin,
        json: { filename: 'stalled.txt', size },
      });
      assert.equal(presign.status, 200, JSON.stringify(presign.body));
      const url = new URL(presign.body.data.upload_url);
      const files = await storedFiles();
      const answer = await rawRequest(
        s.port,
        `PUT ${url.pathname}${url.search} HTTP/1.1\nHost: x\nContent-Type: text/plain\nContent-Length: ${size}`,
        (socket) => socket.write(Buffer.alloc(100 * 1024, 3)),
      );
      assert.equal(answer.status, 408);
      assert.equal(answer.headers.connection, 'close');
      await answer.ended;
      answer.socket.destroy();
      assert.deepEqual(await storedFiles(), files);
    });
  });
});
