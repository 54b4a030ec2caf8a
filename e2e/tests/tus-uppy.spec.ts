/**
 * Uppy in the browser uploads through the tus endpoint (docs/api.md, "Resumable uploads (tus)"):
 * Uppy's own bundle, loaded on a page of the app's origin, sends a 6 MiB file with @uppy/tus in
 * 2 MiB chunks (several PATCHes, a 5 MiB part and the rest) to /api/tus/ with an API key that has
 * Mount, into a folder of a local-disk mount; the file is there, byte for byte.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../support/fixtures.ts';
import { localMount, readFile } from '../support/explorer.ts';

// Wherever npm placed the package (the e2e workspace's own node_modules or the root's).
const UPPY_BUNDLE = path.join(
  path.dirname(fileURLToPath(import.meta.resolve('uppy/package.json'))),
  'dist/uppy.min.js',
);

test('Uppy uploads a file through @uppy/tus into a mount with an API key', async ({ page, api, request }) => {
  const token = await api.adminToken();
  const mount = await localMount(request, token);
  try {
    const key = await api.createKey({ mount: true });
    // A page of the app's origin without the web app (and its Content-Security-Policy) on it.
    await page.goto('/api/health');
    await page.addScriptTag({ path: UPPY_BUNDLE });
    const sent = await page.evaluate(
      async ({ key, folder }) => {
        const bundle = (globalThis as Record<string, unknown>).Uppy as {
          Uppy: new (options: object) => {
            use(plugin: unknown, options: object): unknown;
            addFile(file: object): string;
            upload(): Promise<{ successful?: unknown[]; failed?: Array<{ error?: unknown }> }>;
          };
          Tus: unknown;
        };
        const bytes = new Uint8Array(6 * 1024 * 1024);
        for (let at = 0; at < bytes.length; at += 65536)
          crypto.getRandomValues(bytes.subarray(at, at + 65536));
        const uppy = new bundle.Uppy({ autoProceed: false });
        uppy.use(bundle.Tus, {
          endpoint: '/api/tus/',
          headers: { Authorization: `ApiKey ${key}` },
          chunkSize: 2 * 1024 * 1024,
          retryDelays: [0, 500],
        });
        uppy.addFile({
          name: 'uppy.bin',
          type: 'application/octet-stream',
          data: new Blob([bytes]),
          meta: { path: folder },
        });
        const result = await uppy.upload();
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
        return {
          successful: result.successful?.length ?? 0,
          failed: (result.failed ?? []).map((f) => String(f.error)),
          sha256: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(''),
        };
      },
      { key: key.key, folder: `${mount.path}/from-uppy/` },
    );
    expect(sent.failed).toEqual([]);
    expect(sent.successful).toBe(1);
    const stored = await readFile(request, token, `${mount.path}/from-uppy/uppy.bin`);
    expect(createHash('sha256').update(stored).digest('hex')).toBe(sent.sha256);
  } finally {
    await mount.cleanup(request);
  }
});
