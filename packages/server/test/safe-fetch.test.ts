/**
 * safeFetch against real sockets: every refused URL form (address notations, names resolving to
 * internal addresses, redirects, other protocols) fails with its code AND leaves a counting listener
 * on 127.0.0.1 (and ::1) untouched; allowlisted local servers are fetched, with the limits applied.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  isRefusedAddress,
  type ResolvedAddress,
  type Resolver,
  safeFetch,
  type SafeFetchOptions,
  UrlFetchError,
} from '../src/lib/safe-fetch.ts';
import { type HttpSource, startHttpSource } from './support/http-source.ts';

/** A TCP listener on 127.0.0.1 (and ::1 on the same port when the host has IPv6) counting connections. */
async function countingListener() {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const make = () =>
    net.createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.destroy();
    });
  const v4 = make();
  await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
  const port = (v4.address() as net.AddressInfo).port;
  const v6 = make();
  const hasV6 = await new Promise<boolean>((resolve) => {
    v6.once('error', () => resolve(false));
    v6.listen(port, '::1', () => resolve(true));
  });
  return {
    port,
    hasV6,
    count: () => connections,
    close: async () => {
      await new Promise((r) => v4.close(r));
      if (hasV6) await new Promise((r) => v6.close(r));
    },
  };
}

async function rejectsWith(promise: Promise<unknown>, code: string, label: string) {
  await assert.rejects(
    promise,
    (error: unknown) => {
      assert.ok(error instanceof UrlFetchError, `${label}: ${String(error)}`);
      assert.equal(error.code, code, `${label}: ${error.message}`);
      return true;
    },
    label,
  );
}

async function readText(body: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(body).text();
}

describe('safeFetch', () => {
  let trap: Awaited<ReturnType<typeof countingListener>>;
  let trapHttp: HttpSource;
  let source: HttpSource;
  let release: (() => void) | undefined;
  const resolverCalls: string[] = [];
  const names: Record<string, string[]> = {};
  const resolver: Resolver = async (hostname) => {
    resolverCalls.push(hostname);
    const found = names[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address): ResolvedAddress => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  };

  before(async () => {
    trap = await countingListener();
    // An allowlisted server that would answer; reaching it past the redirect limit is the failure.
    trapHttp = await startHttpSource((_req, res) => res.end('reached'));
    source = await startHttpSource((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
      if (hop) {
        const n = Number(hop[1]);
        res.writeHead(302, { Location: n > 1 ? `/hop/${n - 1}` : `${trapHttp.origin}/end` });
        res.end();
        return;
      }
      switch (url.pathname) {
        case '/hello':
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end('hello world');
          return;
        case '/redirect':
          res.writeHead(302, { Location: url.searchParams.get('to') ?? '/' });
          res.end();
          return;
        case '/big':
          res.writeHead(200, { 'Content-Length': '1000' });
          res.end('x'.repeat(1000));
          return;
        case '/stream': {
          // Chunked, no Content-Length: 10 × 50 bytes.
          res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
          let i = 0;
          const tick = () => {
            if (res.destroyed) return;
            if (i++ === 10) return void res.end();
            res.write('y'.repeat(50));
            setTimeout(tick, 5);
          };
          tick();
          return;
        }
        case '/gated':
          res.writeHead(200);
          res.write('first');
          release = () => res.end('second');
          return;
        case '/hang':
          return; // never answers
        case '/stall':
          res.writeHead(200);
          res.write('partial');
          return; // never ends
        default:
          res.writeHead(404);
          res.end();
      }
    });
  });
  after(async () => {
    await trap.close();
    await trapHttp.close();
    await source.close();
  });

  const P = () => trap.port;
  const allowSource = (): SafeFetchOptions => ({ allowlist: [`127.0.0.1:${source.port}`], resolver });

  it('refuses every notation of an internal address without opening a connection', async () => {
    const forms = [
      `http://127.0.0.1:${P()}/`,
      `http://2130706433:${P()}/`,
      `http://0177.0.0.1:${P()}/`,
      `http://0x7f000001:${P()}/`,
      `http://0x7f.1:${P()}/`,
      `http://127.1:${P()}/`,
      `http://127.0.0.1.:${P()}/`,
      `http://017700000001:${P()}/`,
      `http://%31%32%37.0.0.1:${P()}/`,
      `http://①②⑦.0.0.1:${P()}/`,
      `https://127.0.0.1:${P()}/`,
      `http://0.0.0.0:${P()}/`,
      `http://0:${P()}/`,
      `http://[::]:${P()}/`,
      `http://[::1]:${P()}/`,
      `http://[0:0:0:0:0:0:0:1]:${P()}/`,
      `http://[::ffff:127.0.0.1]:${P()}/`,
      `http://[::ffff:7f00:1]:${P()}/`,
      `http://[::127.0.0.1]:${P()}/`,
      `http://[::ffff:0:7f00:1]:${P()}/`,
      `http://[64:ff9b::127.0.0.1]:${P()}/`,
      `http://[2002:7f00:1::1]:${P()}/`,
      `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${P()}/`,
      `http://localhost:${P()}/`,
      `http://LOCALHOST.:${P()}/`,
      `http://app.localhost:${P()}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://10.0.0.1/',
      'http://172.16.0.1/',
      'http://172.31.255.254/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://169.254.1.1/',
      'http://224.0.0.1/',
      'http://239.255.255.250/',
      'http://255.255.255.255/',
      'http://240.0.0.1/',
      'http://192.0.2.1/',
      'http://198.51.100.1/',
      'http://203.0.113.1/',
      'http://198.18.0.1/',
      'http://192.0.0.170/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[ff02::1]/',
      'http://[fec0::1]/',
      'http://[2001:db8::1]/',
      'http://[100::1]/',
    ];
    for (const url of forms) await rejectsWith(safeFetch(url, { resolver }), 'BLOCKED_ADDRESS', url);
    assert.equal(trap.count(), 0);
    assert.deepEqual(resolverCalls, [], 'address literals and localhost names are never looked up');
  });

  it('refuses names that resolve to an internal address — any one of their addresses', async () => {
    Object.assign(names, {
      'internal.test': ['127.0.0.1'],
      'mixed.test': ['93.184.216.34', '127.0.0.1'],
      'v6.test': ['::1'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'nat64.test': ['64:ff9b::7f00:1'],
      'metadata.test': ['169.254.169.254'],
      'private.test': ['10.1.2.3'],
      'ula.test': ['fd00::1'],
    });
    for (const host of Object.keys(names)) {
      await rejectsWith(safeFetch(`http://${host}:${P()}/`, { resolver }), 'BLOCKED_ADDRESS', host);
    }
    assert.equal(trap.count(), 0);
  });

  it('refuses other protocols, malformed URLs and URLs with credentials before any connection', async () => {
    for (const url of [
      'file:///etc/passwd',
      `ftp://127.0.0.1:${P()}/`,
      `gopher://127.0.0.1:${P()}/_GET%20/`,
      'data:text/plain,hello',
      'javascript:alert(1)',
      `ws://127.0.0.1:${P()}/`,
    ]) {
      await rejectsWith(safeFetch(url, { resolver }), 'PROTOCOL', url);
    }
    for (const url of ['not a url', 'http://', 'http://[::1', 'http://1.2.3.999/', `http://a b:${P()}/`]) {
      await rejectsWith(safeFetch(url, { resolver }), 'INVALID_URL', url);
    }
    await rejectsWith(
      safeFetch(`http://user:secret@127.0.0.1:${source.port}/hello`, allowSource()),
      'INVALID_URL',
      'credentials',
    );
    assert.equal(trap.count(), 0);
  });

  it('fetches an allowlisted local server, streaming its body', async () => {
    const res = await safeFetch(`${source.origin}/hello`, allowSource());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain');
    assert.equal(await readText(res.body), 'hello world');

    // The body arrives while the source is still sending.
    const gated = await safeFetch(`${source.origin}/gated`, allowSource());
    const reader = gated.body.getReader();
    assert.equal(new TextDecoder().decode((await reader.read()).value), 'first');
    release!();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read())
      rest += new TextDecoder().decode(r.value);
    assert.equal(rest, 'second');
  });

  it('allowlist entries: host:port only that port, a bare host any port, CIDR ranges, names', async () => {
    // 127.0.0.1:<source> does not open 127.0.0.1:<trap>.
    await rejectsWith(
      safeFetch(`http://127.0.0.1:${P()}/`, allowSource()),
      'BLOCKED_ADDRESS',
      'other port of an allowlisted host',
    );
    assert.equal(trap.count(), 0);
    const bare = await safeFetch(`${source.origin}/hello`, { allowlist: ['127.0.0.1'] });
    assert.equal(await readText(bare.body), 'hello world');
    const range = await safeFetch(`http://2130706433:${source.port}/hello`, { allowlist: ['127.0.0.0/8'] });
    assert.equal(await readText(range.body), 'hello world');
    // A name: resolved once, the socket connects to that address, the Host header keeps the name.
    names['files.test'] = ['127.0.0.1'];
    resolverCalls.length = 0;
    const before = source.seen.length;
    const named = await safeFetch(`http://files.test:${source.port}/hello`, {
      allowlist: [`files.test:${source.port}`],
      resolver,
    });
    assert.equal(await readText(named.body), 'hello world');
    assert.deepEqual(resolverCalls, ['files.test']);
    assert.equal(source.seen[before]?.host, `files.test:${source.port}`);
    // A CIDR entry lets a name through when its addresses are in the range.
    const viaRange = await safeFetch(`http://files.test:${source.port}/hello`, {
      allowlist: ['127.0.0.0/8'],
      resolver,
    });
    assert.equal(viaRange.status, 200);
    await viaRange.body.cancel();
  });

  it('checks every redirect target from scratch', async () => {
    const to = (target: string) => `${source.origin}/redirect?to=${encodeURIComponent(target)}`;
    for (const target of [
      `http://127.0.0.1:${P()}/`,
      `http://[::1]:${P()}/`,
      `http://2130706433:${P()}/`,
      `http://0x7f000001:${P()}/`,
      `http://localhost:${P()}/`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      await rejectsWith(safeFetch(to(target), allowSource()), 'BLOCKED_ADDRESS', `redirect to ${target}`);
    }
    for (const target of ['file:///etc/passwd', `gopher://127.0.0.1:${P()}/`, 'data:text/plain,x']) {
      await rejectsWith(safeFetch(to(target), allowSource()), 'PROTOCOL', `redirect to ${target}`);
    }
    assert.equal(trap.count(), 0, trap.hasV6 ? 'nothing reached 127.0.0.1 or ::1' : 'nothing reached');
    // A relative redirect within the allowlisted server is followed.
    const relative = await safeFetch(to('/hello'), allowSource());
    assert.equal(await readText(relative.body), 'hello world');
    assert.equal(relative.redirects, 1);
  });

  it('follows at most 5 redirects', async () => {
    const allow = { allowlist: [`127.0.0.1:${source.port}`, `127.0.0.1:${trapHttp.port}`] };
    await rejectsWith(safeFetch(`${source.origin}/hop/6`, allow), 'TOO_MANY_REDIRECTS', '6 redirects');
    assert.equal(trapHttp.connections(), 0, 'the sixth redirect is not followed');
    const five = await safeFetch(`${source.origin}/hop/5`, allow);
    assert.equal(await readText(five.body), 'reached');
    assert.equal(five.redirects, 5);
    assert.equal(trapHttp.connections(), 1);
  });

  it('fails on a Content-Length over the limit before reading the body', async () => {
    await rejectsWith(
      safeFetch(`${source.origin}/big`, { ...allowSource(), maxBytes: 100 }),
      'TOO_LARGE',
      'Content-Length',
    );
    const fits = await safeFetch(`${source.origin}/big`, { ...allowSource(), maxBytes: 1000 });
    assert.equal((await readText(fits.body)).length, 1000);
  });

  it('errors the body stream as soon as a body without Content-Length passes the limit', async () => {
    const res = await safeFetch(`${source.origin}/stream`, { ...allowSource(), maxBytes: 120 });
    assert.equal(res.headers.get('content-length'), null);
    const reader = res.body.getReader();
    let got = 0;
    await assert.rejects(
      (async () => {
        for (let r = await reader.read(); !r.done; r = await reader.read()) got += r.value.length;
      })(),
      (error: unknown) => error instanceof UrlFetchError && error.code === 'TOO_LARGE',
    );
    assert.ok(got <= 120, `at most the limit was delivered (${got})`);
    const whole = await safeFetch(`${source.origin}/stream`, { ...allowSource(), maxBytes: 500 });
    assert.equal((await readText(whole.body)).length, 500);
  });

  it('times out: no answer, a stalled body, a name that never resolves', async () => {
    await rejectsWith(
      safeFetch(`${source.origin}/hang`, { ...allowSource(), idleTimeoutMs: 200 }),
      'TIMEOUT',
      'no answer',
    );
    const stalled = await safeFetch(`${source.origin}/stall`, { ...allowSource(), idleTimeoutMs: 200 });
    await assert.rejects(
      readText(stalled.body),
      (error: unknown) => error instanceof UrlFetchError && error.code === 'TIMEOUT',
    );
    const never: Resolver = () => new Promise(() => {});
    await rejectsWith(
      safeFetch('http://slow.test/', { resolver: never, connectTimeoutMs: 200 }),
      'TIMEOUT',
      'DNS',
    );
  });

  it('reports names that do not resolve, and stops on an AbortSignal', async () => {
    await rejectsWith(safeFetch('http://nowhere.test/', { resolver }), 'DNS', 'unknown name');
    const controller = new AbortController();
    const pending = safeFetch(`${source.origin}/hang`, { ...allowSource(), signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending, (error: Error) => error.name === 'AbortError');
  });

  it('answers HEAD with the headers and an empty body', async () => {
    const res = await safeFetch(`${source.origin}/big`, { ...allowSource(), method: 'HEAD', maxBytes: 10 });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), '1000');
    assert.equal(await readText(res.body), '');
  });
});

describe('isRefusedAddress', () => {
  it('lets public addresses through and refuses internal ones in every family', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111']) {
      assert.equal(isRefusedAddress(a), false, a);
    }
    for (const a of ['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      assert.equal(isRefusedAddress(a), false, `${a} embeds a public IPv4`);
    }
    for (const a of [
      '127.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '192.168.0.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:c0a8:101::1',
      '2001::1',
      'fd00:ec2::254',
      'not-an-address',
    ]) {
      assert.equal(isRefusedAddress(a), true, a);
    }
  });
});
