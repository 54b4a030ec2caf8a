/**
 * /api/url/info and /api/url/proxy over HTTP on both databases: credentials with `file` required,
 * the probe against a local source the allowlist admits (Content-Disposition names, the ranged-GET
 * size fallback), the proxy's sandboxed attachment, refusals of internal addresses, and the
 * url_allowlist setting.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UrlFetchError } from '../src/lib/safe-fetch.ts';
import { urlFetchAppError } from '../src/modules/url-upload/url-probe.ts';
import type { AppError } from '../src/errors/app-error.ts';
import { DIALECTS } from './support/databases.ts';
import { startHttpSource } from './support/http-source.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const LAST_MODIFIED = 'Wed, 21 Oct 2025 07:28:00 GMT';

function startSource() {
  return startHttpSource((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/files/report') {
      res.writeHead(200, {
        'Content-Type': 'application/pdf',
        'Content-Length': '2048',
        'Last-Modified': LAST_MODIFIED,
        'Content-Disposition': `attachment; filename="report.pdf"; filename*=UTF-8''%E5%B9%B4%E5%BA%A6%E6%8A%A5%E5%91%8A.pdf`,
        'Access-Control-Allow-Origin': '*',
      });
      res.end(req.method === 'HEAD' ? undefined : Buffer.alloc(2048, 1));
      return;
    }
    if (path === '/nohead/my%20notes.md') {
      // HEAD refused; a ranged GET answers 206 with the total in Content-Range.
      if (req.method === 'HEAD') {
        res.writeHead(405);
        res.end();
        return;
      }
      const body = '# Notes\n'.repeat(1000);
      if (req.headers.range === 'bytes=0-0') {
        res.writeHead(206, { 'Content-Range': `bytes 0-0/${body.length}`, 'Content-Length': '1' });
        res.end(body.slice(0, 1));
      } else {
        res.writeHead(200, { 'Content-Length': String(body.length) });
        res.end(body);
      }
      return;
    }
    if (path === '/page.html') {
      const body = '<script>alert(document.domain)</script>';
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body)),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (path === '/large.bin') {
      res.writeHead(200, { 'Content-Length': '5000' });
      res.end(req.method === 'HEAD' ? undefined : Buffer.alloc(5000));
      return;
    }
    if (path === '/to-internal') {
      res.writeHead(302, { Location: `http://127.0.0.1:${trapPort}/secret` });
      res.end();
      return;
    }
    res.writeHead(404);
    res.end();
  });
}

let trapPort = 0;

for (const dialect of DIALECTS) {
  describe(`URL upload: info and proxy (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let fileKey: Record<string, string>;
    let textKey: Record<string, string>;
    let source: Awaited<ReturnType<typeof startSource>>;
    let trap: Awaited<ReturnType<typeof startSource>>;

    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      fileKey = apiKey((await t.createKey({ name: 'files', file_permission: true })).key);
      textKey = apiKey((await t.createKey({ name: 'text', text_permission: true })).key);
      trap = await startSource();
      trapPort = trap.port;
      source = await startSource();
      const res = await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: { url_allowlist: `127.0.0.1:${source.port}` },
      });
      assert.equal(res.status, 200);
    });
    after(async () => {
      await source.close();
      await trap.close();
      await t.close();
    });

    const info = (url: unknown, headers: Record<string, string> = fileKey) =>
      t.json('/api/url/info', { method: 'POST', headers, json: { url } });
    const proxy = (url: string, headers: Record<string, string> = fileKey) =>
      t.request(`/api/url/proxy?url=${encodeURIComponent(url)}`, { headers });

    it('needs credentials with the file permission', async () => {
      const url = `${source.origin}/files/report`;
      assert.equal((await info(url, {})).status, 401);
      assert.equal((await proxy(url, {})).status, 401);
      assert.equal((await info(url, textKey)).status, 403);
      assert.equal((await proxy(url, textKey)).status, 403);
      assert.equal((await info(url, admin)).status, 200);
      assert.equal((await proxy(url, admin)).status, 200);
    });

    it('describes an allowlisted source: name from Content-Disposition, type, size, date, CORS', async () => {
      const res = await info(`${source.origin}/files/report`);
      assert.equal(res.status, 200);
      assert.equal(res.body.message, 'URL验证成功');
      assert.deepEqual(res.body.data, {
        url: `${source.origin}/files/report`,
        filename: '年度报告.pdf',
        contentType: 'application/pdf',
        size: 2048,
        lastModified: '2025-10-21T07:28:00.000Z',
        method: 'HEAD',
        corsSupported: true,
      });
    });

    it('falls back to a ranged GET for the size when HEAD fails; the name from the path, the type from it', async () => {
      const res = await info(`${source.origin}/nohead/my%20notes.md`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.size, '# Notes\n'.length * 1000);
      assert.equal(res.body.data.method, 'GET');
      assert.equal(res.body.data.filename, 'my notes.md');
      assert.equal(res.body.data.contentType, 'text/markdown');
      assert.equal(res.body.data.corsSupported, false);
      assert.equal(res.body.data.lastModified, null);
    });

    it('proxies the bytes as a sandboxed attachment that never renders on this origin', async () => {
      const res = await proxy(`${source.origin}/page.html`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(res.headers.get('content-security-policy'), 'sandbox');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="page.html"/);
      assert.equal(await res.text(), '<script>alert(document.domain)</script>');
      const pdf = await proxy(`${source.origin}/files/report`);
      assert.equal(pdf.headers.get('content-length'), '2048');
      assert.match(pdf.headers.get('content-disposition') ?? '', /filename\*=UTF-8''%E5%B9%B4/);
      assert.equal((await pdf.arrayBuffer()).byteLength, 2048);
    });

    it('refuses internal addresses with 403, without connecting', async () => {
      for (const url of [
        `http://127.0.0.1:${trap.port}/secret`,
        `http://2130706433:${trap.port}/secret`,
        `http://[::ffff:127.0.0.1]:${trap.port}/secret`,
        `http://localhost:${trap.port}/secret`,
        'http://169.254.169.254/latest/meta-data/',
        `${source.origin}/to-internal`,
      ]) {
        const res = await t.json('/api/url/info', {
          method: 'POST',
          headers: { ...fileKey, 'X-Cubby-Lang': 'en' },
          json: { url },
        });
        assert.equal(res.status, 403, url);
        assert.equal(res.body.error, 'FORBIDDEN');
        assert.equal(res.body.message, 'This address is not allowed');
        const proxied = await proxy(url);
        assert.equal(proxied.status, 403, url);
        assert.equal((await proxied.json()).error, 'FORBIDDEN');
      }
      assert.equal(trap.connections(), 0);
    });

    it('answers 400 for a missing or malformed URL and other protocols', async () => {
      const missing = await info(undefined);
      assert.equal(missing.status, 400);
      assert.equal(missing.body.message, '缺少URL参数');
      assert.equal((await proxy('')).status, 400);
      const ftp = await info('ftp://example.com/file.zip');
      assert.equal(ftp.status, 400);
      assert.equal(ftp.body.message, '仅支持HTTP/HTTPS协议的URL');
      const en = await t.json('/api/url/info', {
        method: 'POST',
        headers: { ...fileKey, 'X-Cubby-Lang': 'en-US' },
        json: { url: 'file:///etc/passwd' },
      });
      assert.equal(en.body.message, 'Only HTTP and HTTPS URLs are supported');
      assert.equal((await info('http://')).body.message, '无效的URL格式');
      assert.equal((await proxy('gopher://127.0.0.1/')).status, 400);
    });

    it('answers 502 for an upstream error status and 413 over the largest upload size', async () => {
      const missing = await info(`${source.origin}/nothing-here`);
      assert.equal(missing.status, 502);
      assert.equal(missing.body.error, 'UPSTREAM_UNAVAILABLE');
      assert.match(missing.body.message, /404/);
      assert.equal((await proxy(`${source.origin}/nothing-here`)).status, 502);

      await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: { max_upload_size: 4, max_upload_size_unit: 'KB' },
      });
      try {
        const big = await info(`${source.origin}/large.bin`);
        assert.equal(big.status, 413);
        assert.equal(big.body.error, 'PAYLOAD_TOO_LARGE');
        assert.equal((await proxy(`${source.origin}/large.bin`)).status, 413);
        assert.equal((await proxy(`${source.origin}/files/report`)).status, 200);
      } finally {
        await t.json('/api/admin/system-settings', {
          method: 'PUT',
          headers: admin,
          json: { max_upload_size: 100 },
        });
      }
    });

    it('url_allowlist: validated entry by entry, listed, cleared; admins only', async () => {
      const put = (json: unknown, headers = admin) =>
        t.json('/api/admin/system-settings', { method: 'PUT', headers, json });
      const listed = async () =>
        (await t.json('/api/admin/system-settings', { headers: admin })).body.data.find(
          (r: { key: string }) => r.key === 'url_allowlist',
        )?.value;

      assert.equal(await listed(), `127.0.0.1:${source.port}`);
      for (const bad of ['http://files.lan/', 'files.lan/path', '10.0.0.0/33', 'host:99999', 'a b']) {
        const res = await t.json('/api/admin/system-settings', {
          method: 'PUT',
          headers: { ...admin, 'X-Cubby-Lang': 'en' },
          json: { url_allowlist: `files.lan\n${bad}` },
        });
        assert.equal(res.status, 400, bad);
        assert.equal(res.body.error, 'VALIDATION_FAILED');
        assert.ok(res.body.message.includes(bad), `${res.body.message} names ${bad}`);
      }
      assert.equal((await put({ url_allowlist: 42 })).status, 400);
      assert.equal(await listed(), `127.0.0.1:${source.port}`, 'a refused update changes nothing');

      const key = await put({ url_allowlist: 'files.lan' }, fileKey);
      assert.equal(key.status, 403);

      const saved = await put({
        url_allowlist: ` files.lan, nas.lan:8443\n10.0.0.0/8\r\n[::1]:8080 ,fd00::/8\n\n127.0.0.1:${source.port}`,
      });
      assert.equal(saved.status, 200);
      assert.equal(
        await listed(),
        [
          'files.lan',
          'nas.lan:8443',
          '10.0.0.0/8',
          '[::1]:8080',
          'fd00::/8',
          `127.0.0.1:${source.port}`,
        ].join('\n'),
      );
      assert.equal((await info(`${source.origin}/files/report`)).status, 200);

      assert.equal((await put({ url_allowlist: '' })).status, 200);
      assert.equal(await listed(), '');
      assert.equal((await info(`${source.origin}/files/report`)).status, 403, 'no longer allowlisted');
      await put({ url_allowlist: `127.0.0.1:${source.port}` });
    });
  });
}

describe('URL fetch errors as HTTP answers', () => {
  it('maps each failure to its status and code', () => {
    const cases: [UrlFetchError, number, string][] = [
      [new UrlFetchError('INVALID_URL', ''), 400, 'VALIDATION_FAILED'],
      [new UrlFetchError('PROTOCOL', ''), 400, 'VALIDATION_FAILED'],
      [new UrlFetchError('BLOCKED_ADDRESS', ''), 403, 'FORBIDDEN'],
      [new UrlFetchError('TOO_LARGE', ''), 413, 'PAYLOAD_TOO_LARGE'],
      [new UrlFetchError('TIMEOUT', ''), 504, 'UPSTREAM_TIMEOUT'],
      [new UrlFetchError('DNS', ''), 502, 'UPSTREAM_UNAVAILABLE'],
      [new UrlFetchError('UNREACHABLE', ''), 502, 'UPSTREAM_UNAVAILABLE'],
      [new UrlFetchError('TOO_MANY_REDIRECTS', ''), 502, 'UPSTREAM_UNAVAILABLE'],
      [new UrlFetchError('HTTP_STATUS', '', 500), 502, 'UPSTREAM_UNAVAILABLE'],
    ];
    for (const [error, status, code] of cases) {
      const mapped = urlFetchAppError(error, 1024) as AppError;
      assert.equal(mapped.status, status, error.code);
      assert.equal(mapped.code, code, error.code);
    }
    const other = new Error('bug');
    assert.equal(urlFetchAppError(other), other);
  });
});
