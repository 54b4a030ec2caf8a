/**
 * The S3 driver's plain GET (s3-get.ts) against a scripted HTTP server: what it takes, what it
 * hands back to the SDK, and that a body is never passed on longer or shorter than announced.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { webBody } from '../../src/lib/node-body.ts';
import { S3Driver } from '../../src/storage/drivers/s3/s3-driver.ts';
import { plainGet } from '../../src/storage/drivers/s3/s3-get.ts';

interface Scripted {
  url: URL;
  /** The request heads received, in order. */
  requests: string[];
  /** Connections accepted so far. */
  connections(): number;
  /** Connections still open. */
  open(): number;
  close(): Promise<void>;
}

/**
 * A server that answers each request head with `answer(socket, n)` (n counts requests from 1, over
 * all connections); a connection may carry several requests.
 */
async function scripted(answer: (socket: net.Socket, n: number) => unknown): Promise<Scripted> {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        requests.push(buffered.slice(0, end + 4));
        buffered = buffered.slice(end + 4);
        void answer(socket, requests.length);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/bucket/a%20b.bin?X-Amz-Signature=abc`),
    requests,
    connections: () => accepted,
    open: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const options = { connectTimeoutMs: 2000, headTimeoutMs: 2000 };

/** GETs `url` and reads the body as the S3 driver does (handing the connection back at its end). */
async function read(url: URL): Promise<string> {
  const answer = await plainGet(url, options);
  assert.ok(answer, 'the answer was not taken');
  return text(
    webBody(answer.body, {
      length: answer.contentLength,
      ...(answer.release ? { release: answer.release } : {}),
    }),
  );
}

async function text(body: ReadableStream<Uint8Array>): Promise<string> {
  let out = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>)
    out += Buffer.from(chunk).toString();
  return out;
}

describe('plain GET of a storage URL', { timeout: 10_000 }, () => {
  const servers: Scripted[] = [];
  const serve = async (answer: (socket: net.Socket, n: number) => unknown) => {
    const server = await scripted(answer);
    servers.push(server);
    return server;
  };
  after(() => Promise.all(servers.map((s) => s.close())));

  it('sends the signed path and range, skips an interim answer and reads a head split across packets', async () => {
    const server = await serve(async (socket) => {
      socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 206 Partial Content\r\nContent-Le');
      await sleep(30);
      socket.write('ngth: 5\r\nContent-Range: bytes 5-9/20\r\nETag: "e1"\r\n\r\nfgh');
      await sleep(30);
      socket.end('ij');
    });
    const answer = await plainGet(server.url, { ...options, range: { start: 5, end: 9 } });
    assert.ok(answer);
    assert.equal(answer.status, 206);
    assert.equal(answer.headers['content-range'], 'bytes 5-9/20');
    assert.equal(answer.headers.etag, '"e1"');
    assert.equal(await text(webBody(answer.body, { length: answer.contentLength })), 'fghij');
    const request = server.requests[0]!;
    assert.match(request, /^GET \/bucket\/a%20b\.bin\?X-Amz-Signature=abc HTTP\/1\.1\r\n/);
    assert.match(request, new RegExp(`\r\nHost: 127\\.0\\.0\\.1:${server.url.port}\r\n`));
    assert.match(request, /\r\nRange: bytes=5-9\r\n/);
  });

  it('ends the body at Content-Length and drops what follows', async () => {
    const server = await serve((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody and more');
    });
    const answer = await plainGet(server.url, options);
    assert.equal(await text(webBody(answer!.body, { length: answer!.contentLength })), 'body');
  });

  it('errors a body that ends before its Content-Length', async () => {
    const server = await serve((socket) => {
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort');
    });
    const answer = await plainGet(server.url, options);
    await assert.rejects(text(webBody(answer!.body, { length: answer!.contentLength })), /5 of 10 bytes/);
  });

  it('gives an empty body for Content-Length 0', async () => {
    const server = await serve((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
    const answer = await plainGet(server.url, options);
    assert.equal(await text(webBody(answer!.body, { length: 0 })), '');
  });

  for (const [name, head] of [
    ['an error status', 'HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nno!'],
    [
      'a redirect',
      'HTTP/1.1 307 Temporary Redirect\r\nLocation: http://elsewhere/\r\nContent-Length: 0\r\n\r\n',
    ],
    ['a chunked body', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'],
    [
      'a chunked body that also names a length',
      'HTTP/1.1 200 OK\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
    ],
    ['a body without a length', 'HTTP/1.1 200 OK\r\n\r\nuntil close'],
    ['a malformed length', 'HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n'],
    ['two lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 30\r\n\r\nabc'],
  ] as const) {
    it(`leaves ${name} to the SDK and closes the connection`, async () => {
      const server = await serve((socket) => socket.write(head));
      assert.equal(await plainGet(server.url, options), undefined);
      for (let i = 0; i < 50 && server.open() > 0; i++) await sleep(10);
      assert.equal(server.open(), 0);
    });
  }

  it('fails when the head does not come in time, and closes the connection', async () => {
    const server = await serve(() => undefined);
    await assert.rejects(plainGet(server.url, { ...options, headTimeoutMs: 150 }), /timed out/);
    for (let i = 0; i < 50 && server.open() > 0; i++) await sleep(10);
    assert.equal(server.open(), 0);
  });

  it('refuses an endless head and an answer that is not HTTP/1.x', async () => {
    const endless = await serve((socket) => socket.write(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70 * 1024)}`));
    await assert.rejects(plainGet(endless.url, options), /too large/);
    const other = await serve((socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n'));
    await assert.rejects(plainGet(other.url, options), /HTTP\/1\.1/);
    const silent = await serve((socket) => socket.end());
    await assert.rejects(plainGet(silent.url, options), /closed the connection/);
  });

  it('lets a reader pause longer than the head timeout without losing the body', async () => {
    const payload = 'x'.repeat(256 * 1024);
    const server = await serve((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${payload.length}\r\n\r\n`);
      socket.write(payload);
    });
    const answer = await plainGet(server.url, { ...options, headTimeoutMs: 100 });
    await sleep(400);
    assert.equal(
      (await text(webBody(answer!.body, { length: answer!.contentLength }))).length,
      payload.length,
    );
  });

  it('keeps the connection for the next read once a body is read to its end', async () => {
    const server = await serve((socket, n) =>
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nbody #${n}`),
    );
    assert.equal(await read(server.url), 'body #1');
    assert.equal(await read(server.url), 'body #2');
    assert.equal(await read(server.url), 'body #3');
    assert.equal(server.connections(), 1);
  });

  it('closes instead of keeping a connection whose answer said close or whose body was cancelled', async () => {
    const closing = await serve((socket) =>
      socket.write('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok'),
    );
    assert.equal(await read(closing.url), 'ok');
    assert.equal(await read(closing.url), 'ok');
    assert.equal(closing.connections(), 2);

    const big = 'y'.repeat(4 * 1024 * 1024);
    const cancelled = await serve((socket) =>
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${big.length}\r\n\r\n${big}`),
    );
    const answer = await plainGet(cancelled.url, options);
    const reader = webBody(answer!.body, {
      length: answer!.contentLength,
      release: answer!.release!,
    }).getReader();
    await reader.read();
    await reader.cancel();
    assert.equal((await read(cancelled.url)).length, big.length);
    assert.equal(cancelled.connections(), 2);
  });

  it('asks again on a new connection when a kept one was closed in the meantime', async () => {
    // The second request arrives on the kept connection, which the server then drops unanswered.
    const server = await serve((socket, n) => {
      if (n === 2) socket.destroy();
      else socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nbody #${n}`);
    });
    assert.equal(await read(server.url), 'body #1');
    assert.equal(await read(server.url), 'body #3');
    assert.equal(server.connections(), 2);
  });

  it('the S3 driver reads a chunked answer whole, through the SDK', async () => {
    const server = await serve((socket) =>
      socket.write(
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n',
      ),
    );
    const driver = new S3Driver({
      endpoint: server.url.origin,
      region: 'us-east-1',
      bucket: 'bucket',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      pathStyle: true,
      provider: 'other',
    });
    assert.equal(await text((await driver.read('/chunked.txt')).body), 'hello world');
    assert.equal(server.requests.length, 2, 'the plain GET, then the SDK');
  });

  it('reports a refused connection', async () => {
    const server = await serve(() => undefined);
    const url = server.url;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    await assert.rejects(plainGet(url, options), { code: 'ECONNREFUSED' });
  });
});

describe('plain GET over TLS', { timeout: 30_000 }, () => {
  let dir: string;
  let server: tls.Server;
  let url: URL;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-tls-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=storage.test', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
    server = tls.createServer(
      { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) },
      (socket) => {
        socket.on('error', () => undefined);
        socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nover tls ok'));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`https://127.0.0.1:${(server.address() as net.AddressInfo).port}/bucket/key`);
  });
  after(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a storage server whose certificate is not trusted', async () => {
    await assert.rejects(plainGet(url, options), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('reads a body over TLS once the certificate is trusted', async () => {
    // Trusted CAs are read when Node starts, so the read runs in a process that trusts this one
    // (asynchronously: this process serves the answer).
    const module = path.resolve(
      path.dirname(fileURLToPath(import.meta.url)),
      '../../src/storage/drivers/s3/s3-get.ts',
    );
    const script = [
      `import { plainGet } from ${JSON.stringify(module)};`,
      `const answer = await plainGet(new URL(${JSON.stringify(url.href)}), ${JSON.stringify(options)});`,
      'let text = "";',
      'for await (const chunk of answer.body) text += chunk;',
      'console.log(answer.status, text.slice(0, answer.contentLength));',
    ].join('\n');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') }, encoding: 'utf8' },
    );
    assert.equal(stdout.trim(), '200 over tls ok');
  });
});
