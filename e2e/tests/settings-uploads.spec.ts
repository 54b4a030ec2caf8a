/**
 * The "Uploads" settings (docs/product.md §3 "System settings", §5 "largest upload": greater than 0): the
 * largest upload is saved with its unit and shown again after a reload, and the server enforces
 * it; bad sizes and allowlist entries are refused inline; the URL-upload allowlist and the WebDAV
 * upload mode are saved; an error goes when its section changes or another section saves. Other
 * tests upload at the same time, so the settings are put back after each test (the upload limit
 * only ever grows here).
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, seedStorage, test } from '../support/fixtures.ts';
import { BASE_URL } from '../support/env.ts';
import { explorerHref, localMount } from '../support/explorer.ts';

interface SettingRow {
  key: string;
  value: string;
}

async function settingsRows(request: APIRequestContext, token: string): Promise<SettingRow[]> {
  const response = await request.get(`${BASE_URL}/api/admin/system-settings`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: SettingRow[] }).data;
}

const value = (rows: SettingRow[], key: string) => rows.find((row) => row.key === key)?.value;

async function restore(request: APIRequestContext, token: string, rows: SettingRow[]): Promise<void> {
  const response = await request.put(`${BASE_URL}/api/admin/system-settings`, {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      max_upload_size: Number(value(rows, 'max_upload_bytes')) / 1024,
      max_upload_size_unit: 'KB',
      webdav_upload_mode: value(rows, 'webdav_upload_mode'),
      url_allowlist: value(rows, 'url_allowlist') ?? '',
      fs_upload_share: value(rows, 'fs_upload_share') !== 'false',
      webdav_upload_share: value(rows, 'webdav_upload_share') === 'true',
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

function section(page: Page): Locator {
  return page.getByTestId('uploads-settings');
}

/** The settings before each test, put back after it. */
let before: SettingRow[] = [];

test.beforeEach(async ({ seedAdmin, api, request }) => {
  await seedAdmin();
  before = await settingsRows(request, await api.adminToken());
});

test.afterEach(async ({ api, request }) => {
  await restore(request, await api.adminToken(), before);
});

test('saves the largest upload with its unit; it shows after a reload and is the limit the server announces', async ({
  page,
  api,
  request,
}) => {
  const token = await api.adminToken();
  await page.goto('/admin/settings');
  const form = section(page);
  await expect(page.getByRole('heading', { name: 'Uploads' })).toBeVisible();
  const size = form.getByRole('spinbutton', { name: 'Largest upload' });
  const unit = form.getByRole('combobox', { name: 'Unit' });
  await expect(size).toHaveValue(/\d/);

  // Nothing greater than 0, nothing saved.
  await size.fill('0');
  await form.getByRole('button', { name: 'Save upload settings' }).click();
  await expect(size).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText('Enter a size greater than 0.');
  expect(value(await settingsRows(request, token), 'max_upload_bytes')).toBe(
    value(before, 'max_upload_bytes'),
  );

  await size.fill('1.5');
  await unit.selectOption('GB');
  await form.getByRole('button', { name: 'Save upload settings' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Upload settings saved.' })).toBeVisible();
  const limit = await request.get(`${BASE_URL}/api/system/max-upload-size`);
  expect(((await limit.json()) as { data: { max_upload_bytes: number } }).data.max_upload_bytes).toBe(
    1.5 * 1024 ** 3,
  );

  await page.reload();
  await expect(size).toHaveValue('1536');
  await expect(unit).toHaveValue('MB');
});

test('checks allowlist entries inline, and saves the allowlist and the WebDAV mode', async ({
  page,
  api,
  request,
}) => {
  const token = await api.adminToken();
  await page.goto('/admin/settings');
  const form = section(page);
  const allowlist = form.getByRole('textbox', { name: 'Internal hosts URL uploads may fetch' });
  const existing = (await allowlist.inputValue()).trim();
  await allowlist.fill(`${existing}\nfiles.lan\nhttp://not-a-host/\n10.0.0.0/8`.trim());
  await form.getByRole('button', { name: 'Save upload settings' }).click();
  await expect(allowlist).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText('"http://not-a-host/" is not a host, host:port or address range.');

  const entries = `${existing}\nfiles.lan, 192.168.7.20:8080\n10.0.0.0/8`.trim();
  await allowlist.fill(entries);
  await form.getByRole('combobox', { name: 'WebDAV upload mode' }).selectOption('multipart');
  await form.getByRole('button', { name: 'Save upload settings' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Upload settings saved.' })).toBeVisible();
  // One entry per line, as the server stores them.
  const expected = [
    ...(existing ? existing.split('\n') : []),
    'files.lan',
    '192.168.7.20:8080',
    '10.0.0.0/8',
  ];
  await expect(allowlist).toHaveValue(expected.join('\n'));
  const rows = await settingsRows(request, token);
  expect(value(rows, 'url_allowlist')).toBe(expected.join('\n'));
  expect(value(rows, 'webdav_upload_mode')).toBe('multipart');

  await page.reload();
  await expect(allowlist).toHaveValue(expected.join('\n'));
  await expect(form.getByRole('combobox', { name: 'WebDAV upload mode' })).toHaveValue('multipart');
  await expect(form).toContainText('Files are sent to storage in parts');
});

test("an error stays with its section: it goes when the section's fields change or another section saves", async ({
  page,
}) => {
  await page.goto('/admin/settings');
  const account = page.locator('form').filter({ has: page.locator('input[name=currentPassword]') });
  const current = account.getByRole('textbox', { name: 'Current password' });
  const username = account.getByRole('textbox', { name: 'New username' });
  const update = account.getByRole('button', { name: 'Update account' });
  const error = page.getByTestId('account-error');
  const tryWrongPassword = async () => {
    await current.fill('not-my-password');
    await username.fill('someone-else');
    await update.click();
    await expect(error).toHaveText('The current password is wrong');
  };

  await tryWrongPassword();
  // Typing a new current password: the server has not judged it, so the old verdict goes.
  await current.fill('another-guess');
  await expect(error).toBeHidden();

  await tryWrongPassword();
  await current.fill('');
  await username.fill('');
  await expect(error).toBeHidden();

  // Another section saved successfully: an error left in this one goes too.
  await tryWrongPassword();
  const form = section(page);
  const mode = form.getByRole('combobox', { name: 'WebDAV upload mode' });
  await mode.selectOption((await mode.inputValue()) === 'proxy' ? 'multipart' : 'proxy');
  await form.getByRole('button', { name: 'Save upload settings' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Upload settings saved.' })).toBeVisible();
  await expect(error).toBeHidden();
  await expect(current).not.toHaveAttribute('aria-invalid', 'true');
});

test('whether mount uploads are published as share links: set in Settings, said where files are uploaded, shown or hidden in File management', async ({
  page,
  api,
  request,
}) => {
  const token = await api.adminToken();
  const mount = await localMount(request, token);
  try {
    await page.goto('/admin/settings');
    const form = section(page);
    const fsShare = form.getByRole('checkbox', { name: 'Publish files uploaded into mounts as share links' });
    const webdav = form.getByRole('group', { name: 'WebDAV' });
    const webdavShare = webdav.getByRole('checkbox', {
      name: 'Publish files uploaded over WebDAV as share links',
    });
    // CloudPaste's defaults: explorer and API uploads are published, WebDAV uploads are not.
    await expect(fsShare).toBeChecked();
    await expect(webdavShare).not.toBeChecked();
    await expect(webdav.getByRole('combobox', { name: 'WebDAV upload mode' })).toBeVisible();

    const upload = async (name: string) => {
      await page.goto(explorerHref(`${mount.path}/`));
      await page
        .getByTestId('explorer-upload-input')
        .setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(name) });
      await expect(page.getByTestId('fs-upload').and(page.locator(`[data-name="${name}"]`))).toHaveAttribute(
        'data-status',
        'done',
      );
    };
    const note = page.getByTestId('upload-share-note');
    await upload('published.txt');
    await expect(note).toContainText(
      'Uploaded files are also published as public share links, listed in File management.',
    );
    await expect(note.getByRole('link', { name: 'Change in Settings → Uploads' })).toHaveAttribute(
      'href',
      '/admin/settings',
    );

    // File management: mount uploads listed with the rest (the default), alone, or left out.
    await page.goto('/admin/file-management');
    const filter = page.getByRole('combobox', { name: 'Mount uploads' });
    await page.getByTestId('file-search').fill('published.txt');
    const published = page.getByTestId('file-row').filter({ hasText: 'published.txt' });
    await expect(published).toHaveCount(1);
    await expect(published.getByTestId('file-mount-upload')).toHaveText('Mount upload');
    await filter.selectOption({ label: 'Mount uploads only' });
    await expect(published).toHaveCount(1);
    await filter.selectOption({ label: 'Without mount uploads' });
    await expect(page.getByTestId('files-empty')).toContainText('Nothing matches');
    await expect(published).toHaveCount(0);

    // Turned around: explorer uploads stay private, WebDAV uploads are published.
    await page.goto('/admin/settings');
    await fsShare.uncheck();
    await webdavShare.check();
    await form.getByRole('button', { name: 'Save upload settings' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Upload settings saved.' })).toBeVisible();
    const rows = await settingsRows(request, token);
    expect([value(rows, 'fs_upload_share'), value(rows, 'webdav_upload_share')]).toEqual(['false', 'true']);

    // Where a key's mount permission is chosen, the key form says what its uploads do.
    await page.goto('/admin/key-management');
    await page.getByRole('button', { name: 'New API key' }).click();
    await expect(
      page.getByRole('dialog', { name: 'New API key' }).getByTestId('mount-upload-note'),
    ).toHaveText(
      'Files it uploads over WebDAV are also published as share links; through the explorer or the API they are not (Settings → Uploads).',
    );

    await upload('private.txt');
    await expect(note).toContainText('Uploaded files are not published as share links.');
    await page.goto('/admin/file-management');
    await page.getByTestId('file-search').fill('private.txt');
    await expect(page.getByTestId('files-empty')).toBeVisible();

    // In Chinese too.
    await seedStorage(page, { language: 'zh-CN' });
    await page.goto(explorerHref(`${mount.path}/`));
    await page
      .getByTestId('explorer-upload-input')
      .setInputFiles({ name: 'zh.txt', mimeType: 'text/plain', buffer: Buffer.from('zh') });
    await expect(note).toContainText('上传的文件不会发布为分享链接。');
  } finally {
    await mount.cleanup(request);
  }
});
