/**
 * Upload requests (docs/api.md "Upload requests"): the admin makes one in the admin screen, picking
 * the folder with the folder browser; someone signed out opens its link on a phone (375 px) in
 * Chinese and sends two files, each with its progress; the admin sees both received, listed under
 * the request, and the files are in the folder. Then a request into a new bundle, chosen in the same
 * dialog: the row links the bundle, and the file sent through its link is listed on the bundle's page.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BASE_URL } from '../support/env.ts';
import { expect, test, uniqueName } from '../support/fixtures.ts';

const folders: string[] = [];
test.afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

test('a stranger uploads two files into the folder an admin opened to them, and one into a new bundle', async ({
  page,
  api,
  browser,
  seedAdmin,
}) => {
  const token = await seedAdmin();
  const root = path.join(os.tmpdir(), `cubby-e2e-requests-${randomUUID()}`);
  folders.push(root);
  fs.mkdirSync(path.join(root, 'inbox'), { recursive: true });
  const storage = await api.createLocalStorage(uniqueName('requests'), root);
  const top = uniqueName('requests');
  const mount = await api.createMount({ name: top, mount_path: `/${top}`, storage_config_id: storage });
  try {
    await page.goto('/admin/upload-requests');
    await page.getByRole('button', { name: 'New upload request' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New upload request' });
    await dialog.getByRole('button', { name: 'Choose the target folder' }).click();
    const picker = page.getByRole('dialog', { name: 'Target folder' });
    await picker.getByRole('button', { name: `Open ${top}` }).click();
    await picker.getByRole('button', { name: 'Open inbox' }).click();
    await picker.getByRole('button', { name: 'Choose this folder' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Target folder' })).toHaveValue(`/${top}/inbox`);
    await dialog.getByRole('textbox', { name: 'Message to uploaders' }).fill('请上传本季度的报告');
    await dialog.getByRole('spinbutton', { name: 'Most files' }).fill('5');
    await dialog.getByTestId('upload-request-save').click();
    await expect(dialog).toBeHidden();
    const row = page.getByTestId('upload-request-row').filter({ hasText: `/${top}/inbox` });
    await expect(row.getByTestId('upload-request-state')).toHaveText('Active');

    const listed = await page.request.get(`${BASE_URL}/api/upload-requests`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const items = ((await listed.json()) as { data: { items: { target_path: string; url: string }[] } }).data
      .items;
    const link = items.find((item) => item.target_path === `/${top}/inbox`)!.url;

    // The uploader: signed out, on a phone, in Chinese.
    const context = await browser.newContext({
      baseURL: BASE_URL,
      serviceWorkers: 'block',
      viewport: { width: 375, height: 740 },
    });
    await context.addInitScript(() => localStorage.setItem('language', 'zh-CN'));
    const guest = await context.newPage();
    await guest.goto(new URL(link).pathname);
    await expect(guest.getByRole('heading', { name: '发送文件' })).toBeVisible();
    await expect(guest.getByTestId('upload-request-message')).toHaveText('请上传本季度的报告');
    await expect(guest.getByTestId('upload-request-limits')).toContainText('还可发送 5 个文件（共 5 个）');
    await guest.getByTestId('upload-request-input').setInputFiles([
      { name: '报告.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 quarterly') },
      { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.alloc(300_000, 7) },
    ]);
    const sent = guest.getByTestId('upload-request-item');
    await expect(sent).toHaveCount(2);
    await expect(sent.getByTestId('upload-request-item-state')).toHaveText(['已发送', '已发送']);
    await expect(guest.getByTestId('upload-request-limits')).toContainText('还可发送 3 个文件（共 5 个）');
    // The page fits the phone: nothing scrolls sideways.
    expect(await guest.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();

    await page.reload();
    await expect(row.getByTestId('upload-request-counts')).toContainText('Files received: 2');
    await row.getByTestId('upload-request-show-files').click();
    await expect(row.getByTestId('upload-request-file')).toHaveText(
      [`/${top}/inbox/photo.png`, `/${top}/inbox/报告.pdf`].sort(),
    );
    expect(fs.readFileSync(path.join(root, 'inbox', '报告.pdf'), 'utf8')).toBe('%PDF-1.4 quarterly');
    expect(fs.statSync(path.join(root, 'inbox', 'photo.png')).size).toBe(300_000);

    // Into a new bundle: the dialog's other choice needs no folder.
    await page.getByRole('button', { name: 'New upload request' }).first().click();
    await dialog.getByRole('combobox', { name: 'Where the files go' }).selectOption('bundle');
    await expect(dialog.getByRole('textbox', { name: 'Target folder' })).toBeHidden();
    const title = uniqueName('bundle-request');
    await dialog.getByRole('textbox', { name: 'Message to uploaders' }).fill(title);
    await dialog.getByTestId('upload-request-save').click();
    await expect(dialog).toBeHidden();
    const mine = await page.request.get(`${BASE_URL}/api/upload-requests`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const made = (
      (await mine.json()) as { data: { items: { message: string; url: string; bundle_url: string }[] } }
    ).data.items.find((item) => item.message === title)!;
    const bundleLink = page
      .getByTestId('upload-request-row')
      .getByTestId('upload-request-bundle')
      .filter({ hasText: made.bundle_url });
    await expect(bundleLink).toHaveAttribute('href', made.bundle_url);

    await page.goto(new URL(made.url).pathname);
    await page
      .getByTestId('upload-request-input')
      .setInputFiles([
        { name: 'minutes.txt', mimeType: 'text/plain', buffer: Buffer.from('minutes of the meeting') },
      ]);
    await expect(page.getByTestId('upload-request-item-state')).toHaveText('Sent');
    await page.goto(new URL(made.bundle_url).pathname);
    await expect(page.getByTestId('bundle-item')).toHaveCount(1);
    await expect(page.getByTestId('bundle-item')).toContainText('minutes.txt');
  } finally {
    await api.deleteMount(mount.id);
    await api.deleteStorage(storage);
  }
});
