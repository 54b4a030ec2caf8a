/**
 * Bundles (docs/api.md "Bundles"): two files uploaded on the upload page go out as one link ("Share
 * as one link"); a visitor who is signed out, in Chinese, opens it, sees both with an image preview,
 * downloads one, and the zip link gives both. Two files chosen in the explorer become one link too.
 * Admin → Bundles & folder links lists bundles and folder links made through the API: a bundle's
 * views, password and items change in its dialog, and a revoked folder link answers "gone" at once.
 */
import type { Page } from '@playwright/test';
import { BASE_URL } from '../support/env.ts';
import { explorerHref, localMount, putText } from '../support/explorer.ts';
import { chooseLanguage } from '../support/a11y.ts';
import { expect, test, uniqueName } from '../support/fixtures.ts';
import { pngOf, sha256 } from '../support/files.ts';

const rowNamed = (page: Page, name: string) =>
  page
    .getByTestId('entry-row')
    .filter({ has: page.getByTestId('entry-name').getByText(name, { exact: true }) });

test('two uploads become one link; signed out, in Chinese, the bundle lists, downloads and zips them', async ({
  page,
  browser,
  seedAdmin,
}) => {
  await seedAdmin();
  const text = `${uniqueName('notes')}.txt`;
  const image = `${uniqueName('photo')}.png`;
  const png = pngOf(24, 16);
  await page.goto('/upload');
  await page.getByTestId('file-input').setInputFiles([
    { name: text, mimeType: 'text/plain', buffer: Buffer.from('bundle notes\n') },
    { name: image, mimeType: 'image/png', buffer: png },
  ]);
  await page.getByTestId('start-upload').click();
  const form = page.getByTestId('share-as-bundle');
  await expect(form).toContainText('2 files');
  await form.locator('input[name=bundle-title]').fill('Trip');
  await form.locator('input[name=bundle-views]').fill('abc');
  await page.getByTestId('share-as-bundle-submit').click();
  await expect(form.getByText('Enter a whole number of 0 or more.')).toBeVisible();
  await form.locator('input[name=bundle-views]').fill('5');
  await page.getByTestId('share-as-bundle-submit').click();
  const url = (await page.getByTestId('share-as-bundle-url').textContent())!.trim();
  expect(url).toMatch(/\/bundle\/[A-Za-z0-9]{6}$/);

  // A visitor: a fresh browser context, signed out, Chinese.
  const visitor = await browser.newContext({ locale: 'zh-CN' });
  try {
    const guest = await visitor.newPage();
    await guest.goto('/');
    await guest.evaluate(() => localStorage.setItem('language', 'zh-CN'));
    await guest.goto(new URL(url).pathname);
    await expect(guest.getByRole('heading', { level: 1, name: 'Trip' })).toBeVisible();
    const items = guest.getByTestId('bundle-item');
    await expect(items).toHaveCount(2);
    await expect(guest.getByTestId('bundle-view')).toContainText('2 个文件');
    await expect(guest.getByTestId('bundle-view')).toContainText('访问次数：1 / 5');
    const preview = items.filter({ hasText: image }).getByRole('img');
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(24);

    const download = guest.waitForEvent('download');
    await items.filter({ hasText: text }).getByRole('link', { name: /下载/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(text);

    const zipHref = await guest.getByTestId('bundle-zip').getAttribute('href');
    const zip = await guest.request.get(zipHref!);
    expect(zip.status()).toBe(200);
    expect(zip.headers()['content-type']).toBe('application/zip');
    const bytes = await zip.body();
    // Both names and the PNG's bytes are in the (stored, uncompressed) archive.
    expect(bytes.includes(Buffer.from(text))).toBe(true);
    expect(bytes.includes(png)).toBe(true);
    expect(sha256(bytes.subarray(0, 4))).toBe(sha256(Buffer.from([0x50, 0x4b, 0x03, 0x04])));

    // A reload during the visit counts nothing more.
    await guest.reload();
    await expect(guest.getByTestId('bundle-view')).toContainText('访问次数：1 / 5');
  } finally {
    await visitor.close();
  }
});

test('two files chosen in the explorer become one link, read from the mount', async ({
  page,
  request,
  api,
  seedAdmin,
}) => {
  const token = await api.adminToken();
  const mount = await localMount(request, token);
  try {
    await putText(request, token, `${mount.path}/trip/a.txt`, 'alpha');
    await putText(request, token, `${mount.path}/trip/b.md`, '# beta');
    await seedAdmin();
    await page.goto(explorerHref(`${mount.path}/trip`));
    await rowNamed(page, 'a.txt').click();
    await rowNamed(page, 'b.md').click({ modifiers: ['ControlOrMeta'] });
    await page.getByTestId('selection-bundle').click();
    const dialog = page.getByTestId('bundle-dialog');
    await dialog.locator('input[name=bundle-title]').fill('From the mount');
    await dialog.getByTestId('share-as-bundle-submit').click();
    const url = (await dialog.getByTestId('share-as-bundle-url').textContent())!.trim();

    const view = await request.get(`${BASE_URL}/api/public/bundles/${url.split('/').pop()}`);
    const data = (
      (await view.json()) as { data: { title: string; items: { name: string; download_url: string }[] } }
    ).data;
    expect(data.title).toBe('From the mount');
    expect(data.items.map((i) => i.name)).toEqual(['a.txt', 'b.md']);
    expect(await (await request.get(data.items[1]!.download_url)).text()).toBe('# beta');
  } finally {
    await mount.cleanup(request);
  }
});

test('Admin → Bundles & folder links: a bundle gets a password, fewer views and another order; a folder link is revoked', async ({
  page,
  browser,
  request,
  api,
  seedAdmin,
}) => {
  const token = await api.adminToken();
  const auth = { Authorization: `Bearer ${token}` };
  const mount = await localMount(request, token);
  try {
    const first = await api.createPaste({ content: 'first', format: 'text' });
    const second = await api.createPaste({ content: 'second', format: 'text' });
    const title = uniqueName('Handout');
    const made = await request.post(`${BASE_URL}/api/bundles`, {
      headers: auth,
      data: {
        title,
        items: [
          { type: 'paste', value: first.slug },
          { type: 'paste', value: second.slug },
        ],
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    const bundleSlug = ((await made.json()) as { data: { slug: string } }).data.slug;
    await putText(request, token, `${mount.path}/photos/a.txt`, 'alpha');
    const shared = await request.post(`${BASE_URL}/api/fs/create-share`, {
      headers: auth,
      data: { path: `${mount.path}/photos` },
    });
    expect(shared.status(), await shared.text()).toBe(201);
    const folderSlug = ((await shared.json()) as { data: { slug: string } }).data.slug;

    await seedAdmin();
    await page.goto('/admin/shared-links');
    await expect(page.getByRole('heading', { level: 1, name: 'Bundles & folder links' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Bundles' })).toBeVisible();
    const bundle = page.getByTestId('bundle-row').filter({ hasText: title });
    await expect(bundle).toContainText('2 items');
    await expect(bundle.getByTestId('link-state')).toHaveText('Active');

    await bundle.getByTestId('edit-link').click();
    const dialog = page.getByTestId('link-dialog');
    await expect(dialog.getByTestId('bundle-item')).toHaveText([`${first.slug}.txt`, `${second.slug}.txt`]);
    await dialog.getByRole('button', { name: `Move ${second.slug}.txt up` }).click();
    await dialog.getByLabel('Max views').fill('-1');
    await dialog.getByTestId('link-save').click();
    await expect(dialog.getByText('Enter a whole number, 0 or more.')).toBeVisible();
    await dialog.getByLabel('Max views').fill('3');
    await dialog.getByLabel('Password', { exact: true }).fill('open sesame');
    await dialog.getByTestId('link-save').click();
    await expect(dialog).toBeHidden();
    await expect(bundle).toContainText('0 / 3');
    await expect(bundle).toContainText('Protected');

    const visitor = await browser.newContext({ baseURL: BASE_URL });
    try {
      const guest = await visitor.newPage();
      await guest.goto(`/bundle/${bundleSlug}`);
      await expect(guest.getByTestId('file-password-gate')).toBeVisible();
      const opened = await guest.request.post(`${BASE_URL}/api/public/bundles/${bundleSlug}/verify`, {
        data: { password: 'open sesame' },
      });
      const view = ((await opened.json()) as { data: { max_views: number; items: { name: string }[] } }).data;
      expect(view.max_views).toBe(3);
      expect(view.items.map((item) => item.name)).toEqual([`${second.slug}.txt`, `${first.slug}.txt`]);

      const folder = page.getByTestId('folder-link-row').filter({ hasText: `${mount.path}/photos` });
      await folder.getByTestId('revoke-link').click();
      const confirm = page.getByTestId('confirm-dialog');
      await expect(confirm).toContainText(`${mount.path}/photos`);
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await expect(folder.getByTestId('link-state')).toHaveText('Revoked');
      await expect(folder.getByTestId('revoke-link')).toHaveCount(0);
      await guest.goto(`/folder/${folderSlug}`);
      await expect(guest.getByTestId('folder-gone')).toBeVisible();
      expect((await guest.request.get(`${BASE_URL}/api/public/folders/${folderSlug}`)).status()).toBe(410);
    } finally {
      await visitor.close();
    }

    await chooseLanguage(page, '中文');
    await expect(page.getByRole('heading', { level: 1, name: '合集与文件夹链接' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: '文件夹链接' })).toBeVisible();
    await expect(bundle.getByTestId('link-state')).toHaveText('有效');
  } finally {
    await mount.cleanup(request);
  }
});
