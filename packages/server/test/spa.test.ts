/** Serving the built web app: SPA fallback, caching, security headers, confinement to dist. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from './support/test-app.ts';

describe('web app serving', () => {
  let t: TestApp;
  let dist: string;
  const inline = "document.documentElement.dataset.theme='dark';";
  before(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html><head><script>${inline}</script><script type="module" src="/assets/app-1a2b3c.js"></script></head><body>Cubby</body></html>`,
    );
    fs.writeFileSync(path.join(dist, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Cubby"}');
    fs.writeFileSync(path.join(path.dirname(dist), 'outside-secret.txt'), 'do not serve');
    t = await createTestApp('sqlite', {}, dist);
  });
  after(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html for client routes, never cached, with a strict CSP allowing its inline script by hash', async () => {
    for (const route of ['/', '/admin/key-management', '/paste/abc', '/mount-explorer/a/b']) {
      const res = await t.request(route);
      assert.equal(res.status, 200, route);
      assert.match(await res.text(), /Cubby/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      const hash = createHash('sha256').update(inline).digest('base64');
      assert.ok(csp.includes(`'sha256-${hash}'`), csp);
      assert.ok(csp.includes("frame-ancestors 'none'"));
      assert.ok(!/script-src[^;]*'unsafe-inline'/.test(csp));
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    }
  });

  it('caches hashed assets as immutable and serves them with their type', async () => {
    const res = await t.request('/assets/app-1a2b3c.js');
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'console.log("app")');
    assert.match(res.headers.get('cache-control') ?? '', /immutable/);
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    const icon = await t.request('/favicon.svg');
    assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
    assert.equal(icon.headers.get('cache-control'), 'no-cache');
  });

  it('serves the service worker and the manifest (installable app) uncached, with their types', async () => {
    const worker = await t.request('/sw.js');
    assert.equal(worker.status, 200);
    assert.match(worker.headers.get('content-type') ?? '', /^text\/javascript/);
    // A new build's worker must be seen at once: never served from the HTTP cache.
    assert.equal(worker.headers.get('cache-control'), 'no-cache');
    const manifest = await t.request('/manifest.webmanifest');
    assert.equal(manifest.headers.get('content-type'), 'application/manifest+json');
    assert.equal(manifest.headers.get('cache-control'), 'no-cache');
    assert.deepEqual(await manifest.json(), { name: 'Cubby' });
    // The page's policy lets it register a same-origin worker and read its manifest.
    const csp = (await t.request('/')).headers.get('content-security-policy') ?? '';
    assert.match(csp, /worker-src 'self'/);
    assert.match(csp, /default-src 'self'/);
    assert.ok(!/manifest-src/.test(csp), 'manifest-src falls back to default-src');
  });

  it('never falls back to the app for /api or /dav paths', async () => {
    const api = await t.request('/api/nothing-here');
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /json/);
    // /dav is WebDAV's: without credentials it asks for them, it never answers the app's page.
    const dav = await t.request('/dav/x');
    assert.equal(dav.status, 401);
    assert.match(dav.headers.get('www-authenticate') ?? '', /^Basic /);
    assert.doesNotMatch(await dav.text(), /<html/i);
  });

  it('never serves a file outside dist', async () => {
    for (const route of [
      '/../outside-secret.txt',
      '/%2e%2e/outside-secret.txt',
      '/assets/..%2f..%2foutside-secret.txt',
    ]) {
      const res = await t.request(route);
      assert.ok(!(await res.text()).includes('do not serve'), route);
    }
  });
});
