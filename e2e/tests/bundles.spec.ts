/**
 * Bundles (docs/api.md "Bundles"): two files uploaded on the upload page go out as one link ("Share
 * as one link"); a visitor who is signed out, in Chinese, opens it, sees both with an image preview,
 * downloads one, and the zip link gives both. Two files chosen in the explorer become one link too.
 */
import type { Page } from '@playwright/test';
import { BASE_URL } from '../support/env.ts';
import { explorerHref, localMount, putText } from '../support/explorer.ts';
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
