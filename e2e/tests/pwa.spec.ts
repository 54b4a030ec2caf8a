/**
 * The installable offline app (issue 14, docs/product.md §2, §4, §8, §9): the service worker installs and
 * takes over; offline, a paste viewed before opens from its saved copy with the offline mark and a
 * screen never opened shows the fallback page with the 3-second toast; Cache Storage and IndexedDB
 * never hold a token, key, password or excluded answer, and nothing stored for a signed-in user
 * survives logout; a new build's worker waits for "Reload to update"; the install prompt's
 * 7-day rule. Tests in this file run in order: one of them changes the served sw.js.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { expect, test, uniqueName } from '../support/fixtures.ts';
import {
  PRIVATE_API_CACHE,
  dumpOfflineStorage,
  waitForPrivateCacheGone,
  waitForWorker,
} from '../support/offline.ts';

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ mode: 'serial' });

const SW_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/web/dist/sw.js');

test('the service worker installs and takes over; manifest and worker are served right', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await waitForWorker(page);
  const manifest = await request.get('/manifest.webmanifest');
  expect(manifest.headers()['content-type']).toBe('application/manifest+json');
  const body = (await manifest.json()) as { display: string; icons: { sizes: string; purpose: string }[] };
  expect(body.display).toBe('standalone');
  expect(body.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  const worker = await request.get('/sw.js');
  expect(worker.headers()['cache-control']).toBe('no-cache');
  expect(worker.headers()['content-type']).toMatch(/javascript/);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
});

test('offline: a paste viewed before opens with the offline mark; an unvisited screen shows the fallback page and the toast', async ({
  page,
  context,
  api,
}) => {
  const slug = uniqueName('offline');
  await api.createPaste({ content: '# Plane reading\n\nSeen yesterday.', slug, remark: 'Plane notes' });
  await page.goto('/');
  await waitForWorker(page);
  await page.goto(`/paste/${slug}`);
  await expect(
    page.getByTestId('paste-content').getByRole('heading', { name: 'Plane reading' }),
  ).toBeVisible();
  await expect(page.getByTestId('offline-badge')).toHaveCount(0);

  await context.setOffline(true);
  await page.reload();
  await expect(
    page.getByTestId('paste-content').getByRole('heading', { name: 'Plane reading' }),
  ).toBeVisible();
  await expect(page.getByTestId('offline-badge')).toContainText('Offline · copy from ');

  // The upload screen's code was never loaded.
  await page.goto('/upload');
  await expect(page.getByRole('heading', { level: 1, name: 'Page temporarily unavailable' })).toBeVisible();
  const toast = page.getByTestId('toast').filter({ hasText: 'This page is temporarily unavailable' });
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 4500 });
  for (const name of ['Back to home', 'Back', 'Retry']) {
    await expect(
      page.getByRole('button', { name, exact: true }).or(page.getByRole('link', { name, exact: true })),
    ).toBeVisible();
  }

  await context.setOffline(false);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('offline-fallback')).toHaveCount(0);
  await expect(page).toHaveURL(/\/upload$/);
});

test('Cache Storage and IndexedDB hold no credential or excluded answer; logout leaves nothing authenticated', async ({
  page,
  api,
  seedAdmin,
}) => {
  const secretPaste = uniqueName('secret');
  await api.createPaste({ content: 'password protected body', slug: secretPaste, password: 'pw-Hunter2-x' });
  const key = await api.createKey({ name: uniqueName('offline-key') });
  const token = await seedAdmin();
  await page.goto('/');
  await waitForWorker(page);
  await page.goto('/admin/text-management');
  await expect(page.getByRole('heading', { level: 1, name: 'Text management' })).toBeVisible();
  // Excluded answers, asked for from the page (through the worker).
  await page.evaluate(
    async ({ adminToken, slug }) => {
      const auth = { Authorization: `Bearer ${adminToken}` };
      for (const url of [
        '/api/health',
        '/api/version',
        '/api/system/max-upload-size',
        '/api/admin/api-keys',
        `/api/raw/${slug}`,
        '/api/admin/system-settings',
      ]) {
        await fetch(url, { headers: auth }).catch(() => undefined);
      }
    },
    { adminToken: token, slug: secretPaste },
  );
  await page.goto(`/paste/${secretPaste}`);
  await expect(page.getByRole('textbox', { name: /password/i }).first()).toBeVisible();

  // A list read with the admin's token is kept (the file list; the text list holds the protected
  // paste's preview, so it is not).
  await page.evaluate(async (adminToken) => {
    await fetch('/api/admin/files', { headers: { Authorization: `Bearer ${adminToken}` } });
  }, token);
  await expect
    .poll(async () => (await dumpOfflineStorage(page)).urls.some((url) => url.includes('/api/admin/files')))
    .toBe(true);
  const before = await dumpOfflineStorage(page);
  for (const url of before.urls.filter((entry) => entry.includes('/api/'))) {
    expect(url).toMatch(/\/api\/(?:admin|user)\/(?:pastes|files)(?:\?|$)/);
  }
  for (const secret of [token, key.key, ADMIN_PASSWORD, 'pw-Hunter2-x', 'password protected body']) {
    expect(before.text).not.toContain(secret);
  }

  await page.goto('/admin');
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await waitForPrivateCacheGone(page);
  await expect
    .poll(async () => (await dumpOfflineStorage(page)).urls.filter((url) => url.includes('/api/admin/')))
    .toEqual([]);
  const after = await dumpOfflineStorage(page);
  expect(await page.evaluate((name) => caches.has(name), PRIVATE_API_CACHE)).toBe(false);
  expect(after.text).not.toContain(token);
});

test('a new build waits for "Reload to update"; the reload activates it', async ({ page }) => {
  await page.goto('/');
  await waitForWorker(page);
  const original = fs.readFileSync(SW_FILE, 'utf8');
  try {
    fs.writeFileSync(SW_FILE, `${original}\n// build ${Date.now()}\n`);
    await page.evaluate(() => {
      (window as unknown as { __samePage: boolean }).__samePage = true;
    });
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByTestId('update-prompt');
    await expect(prompt).toBeVisible({ timeout: 20_000 });
    await expect(prompt).toContainText('A new version of Cubby is ready');
    // Not reloaded under the user's feet, and the old worker still controls the page.
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(
      await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
    ).toBe(true);

    await prompt.getByRole('button', { name: 'Reload to update' }).click();
    await page.waitForFunction(() => !(window as unknown as { __samePage?: boolean }).__samePage);
    await waitForWorker(page);
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null),
    ).toBeNull();
    await expect(page.getByTestId('update-prompt')).toHaveCount(0);
  } finally {
    fs.writeFileSync(SW_FILE, original);
  }
});

test('the install prompt shows when installable and not again within 7 days of "Not now"', async ({
  page,
}) => {
  await page.clock.install({ time: new Date('2026-06-01T10:00:00Z') });
  await page.goto('/');
  const offerInstall = () =>
    page.evaluate(() => {
      const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => undefined,
        userChoice: Promise.resolve({ outcome: 'dismissed' }),
      });
      window.dispatchEvent(event);
    });
  await offerInstall();
  const prompt = page.getByTestId('install-prompt');
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('Install Cubby');
  await prompt.getByRole('button', { name: 'Not now' }).click();
  await expect(prompt).toBeHidden();

  await page.reload();
  await offerInstall();
  // Six days later (the prompt is rechecked every 5 seconds): still not offered.
  await page.clock.fastForward(6 * 24 * 60 * 60 * 1000);
  await page.clock.runFor(5000);
  await expect(prompt).toBeHidden();
  // Past 7 days: offered again.
  await page.clock.fastForward(24 * 60 * 60 * 1000);
  await page.clock.runFor(5000);
  await expect(prompt).toBeVisible();
});
