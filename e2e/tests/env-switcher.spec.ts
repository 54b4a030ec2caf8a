/**
 * The environment switcher (docs/product.md §2): only for an admin with `showEnvSwitcher` in the URL; stores
 * an http(s) backend address in localStorage `vite-api-base-url`; "Use default" goes back.
 */
import { expect, seedStorage, storageValue, test } from '../support/fixtures.ts';
import { PORT } from '../support/env.ts';

test('is hidden from visitors and from admins without the query parameter', async ({ page, seedAdmin }) => {
  await page.goto('/?showEnvSwitcher');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('env-switcher-button')).toHaveCount(0);

  await seedAdmin();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('env-switcher-button')).toHaveCount(0);
});

test('is hidden from API key users even with the query parameter', async ({ page, api }) => {
  const key = await api.createKey({ text: true });
  await seedStorage(page, {
    api_key: key.key,
    api_key_permissions: JSON.stringify({ text: true, file: false, mount: false }),
    api_key_info: JSON.stringify({ id: key.id, name: key.name, basic_path: '/' }),
  });
  await page.goto('/admin?showEnvSwitcher');
  await expect(page.getByRole('heading', { name: 'Text management' })).toBeVisible();
  await expect(page.getByTestId('env-switcher-button')).toHaveCount(0);
});

test('an admin points the UI at another backend and back to the default', async ({ page, seedAdmin }) => {
  await seedAdmin();
  await page.goto('/admin/key-management?showEnvSwitcher');
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await page.getByRole('button', { name: 'Backend' }).click();
  const dialog = page.getByRole('dialog', { name: 'Backend address' });
  await expect(dialog.getByTestId('env-switcher-current')).toHaveText('this site (default)');
  const field = dialog.getByRole('textbox', { name: 'Backend URL' });

  for (const bad of ['not a url', 'ftp://127.0.0.1/', 'http://127.0.0.1:8790/?x=1', 'javascript:alert(1)']) {
    await field.fill(bad);
    await dialog.getByRole('button', { name: 'Use this backend' }).click();
    await expect(
      dialog.getByText('Enter a valid http or https URL without query or fragment.'),
    ).toBeVisible();
  }
  expect(await storageValue(page, 'vite-api-base-url')).toBeNull();

  // The same server under another origin: requests must now go there (cross-origin, CORS).
  const other = `http://localhost:${PORT}`;
  await field.fill(`${other}/`);
  const validation = page.waitForRequest((request) =>
    request.url().startsWith(`${other}/api/test/admin-token`),
  );
  await dialog.getByRole('button', { name: 'Use this backend' }).click();
  await validation;
  await expect(page.getByTestId('toast')).toContainText(`Now using the backend at ${other}.`);
  expect(await storageValue(page, 'vite-api-base-url')).toBe(other);

  const list = page.waitForResponse((response) => response.url() === `${other}/api/admin/api-keys`);
  await page.reload();
  expect((await list).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  await page.getByRole('button', { name: 'Backend' }).click();
  await expect(dialog.getByTestId('env-switcher-current')).toHaveText(other);
  await dialog.getByRole('button', { name: 'Use default' }).click();
  await expect(page.getByTestId('toast')).toContainText("Now using this site's backend.");
  expect(await storageValue(page, 'vite-api-base-url')).toBeNull();
  const sameOrigin = page.waitForRequest((request) => request.url().endsWith('/api/admin/api-keys'));
  await page.reload();
  expect(new URL((await sameOrigin).url()).host).toBe(`127.0.0.1:${PORT}`);
});

test('its button covers no control, on a phone and on a wide screen, wherever the page is scrolled', async ({
  page,
  seedAdmin,
}) => {
  await seedAdmin();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width < 768 ? 800 : 900 });
    await page.goto('/?showEnvSwitcher');
    const button = page.getByTestId('env-switcher-button');
    await expect(button).toBeVisible();
    const scrollHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= scrollHeight; y += 200) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      // Every control under the button's box, found by what is on top at points inside it.
      const covered = await button.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const hits = new Set<string>();
        for (let x = box.left + 2; x < box.right - 1; x += 6) {
          for (let y = box.top + 2; y < box.bottom - 1; y += 6) {
            for (const under of document.elementsFromPoint(x, y)) {
              if (el.contains(under) || under.contains(el)) continue;
              const control = under.closest('a, button, input, select, textarea, [contenteditable=true]');
              if (control) hits.add(control.outerHTML.slice(0, 80));
            }
          }
        }
        return [...hits];
      });
      expect(covered, `${width} px, scrolled to ${y}`).toEqual([]);
    }
  }
});
