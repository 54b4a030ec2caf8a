/**
 * Folder shares in the browser (docs/api.md "Folder shares"): the explorer's Share on a folder makes
 * a folder share and shows its link; the link opened signed out, in Chinese, browses the folder and
 * a subfolder (the URL keeps it), previews a text file, downloads a file and the subfolder as a zip.
 */
import { BASE_URL } from '../support/env.ts';
import { explorerHref, localMount, putText, type TestMount } from '../support/explorer.ts';
import { expect, seedStorage, test } from '../support/fixtures.ts';

let mount: TestMount;
let token: string;

test.beforeAll(async ({ request, api }) => {
  token = await api.adminToken();
  mount = await localMount(request, token);
});
test.afterAll(async ({ request }) => {
  await mount.cleanup(request);
});

test('a folder shared from the explorer, opened signed out in Chinese: browse, preview, download', async ({
  page,
  browser,
  seedAdmin,
  request,
}) => {
  const base = `${mount.path}/trip`;
  await putText(request, token, `${base}/notes.txt`, 'trip notes');
  await putText(request, token, `${base}/照片/说明.txt`, '第一天');
  await putText(request, token, `${mount.path}/secret.txt`, 'not shared');

  await seedAdmin();
  await page.goto(explorerHref(`${mount.path}/`));
  await page.getByTestId('entry-row').filter({ hasText: 'trip' }).first().getByTestId('entry-more').click();
  await page.getByTestId('menu-share').click();
  const dialog = page.getByTestId('share-dialog');
  await expect(dialog).toContainText('read-only link to this folder');
  await dialog.getByTestId('share-create').click();
  const url = (await dialog.getByTestId('share-url').textContent())!;
  expect(url).toMatch(/\/folder\/[A-Za-z0-9_-]+$/);
  const slug = url.split('/folder/')[1]!;

  // A visitor: no session, the UI in Chinese.
  const visitor = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN' });
  const guest = await visitor.newPage();
  await seedStorage(guest, { language: 'zh-CN' });
  await guest.goto(`/folder/${slug}`);
  await expect(guest.getByRole('heading', { level: 1, name: 'trip' })).toBeVisible();
  await expect(guest.getByTestId('folder-zip')).toHaveText('下载文件夹（zip）');
  const names = guest.getByTestId('folder-item');
  await expect(names).toHaveCount(2);
  await expect(names.nth(0)).toHaveAttribute('data-name', '照片');
  await expect(names.nth(1)).toHaveAttribute('data-name', 'notes.txt');

  // Into the subfolder: the URL keeps it, the breadcrumb leads back.
  await guest.getByRole('link', { name: '照片' }).click();
  await expect(guest).toHaveURL(new RegExp(`/folder/${slug}\\?path=${encodeURIComponent('/照片')}$`));
  await expect(guest.getByTestId('folder-breadcrumb')).toHaveAttribute('data-path', '/照片');
  await expect(names).toHaveCount(1);
  await guest.getByRole('button', { name: '说明.txt' }).click();
  await expect(guest.getByTestId('folder-preview')).toContainText('第一天');
  await guest.keyboard.press('Escape');

  const download = guest.waitForEvent('download');
  await guest.getByRole('link', { name: '下载 说明.txt' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('说明.txt');
  const fs = await import('node:fs/promises');
  expect(await fs.readFile((await file.path())!, 'utf8')).toBe('第一天');

  const zip = guest.waitForEvent('download');
  await guest.getByTestId('folder-zip').click();
  expect((await zip).suggestedFilename()).toBe('照片.zip');

  // Back to the shared folder; one visit counted for all of it.
  await guest.getByTestId('crumb').click();
  await expect(names).toHaveCount(2);
  const shares = await request.get(`${BASE_URL}/api/folder-shares`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const mine = ((await shares.json()) as { data: { slug: string; views: number }[] }).data;
  expect(mine.find((share) => share.slug === slug)!.views).toBe(1);
  await visitor.close();
});
