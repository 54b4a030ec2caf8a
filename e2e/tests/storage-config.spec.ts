/**
 * Storage configuration in the admin area (docs/product.md §2 storage-config, §3 "Storage config"): a
 * local-disk config and an S3 config on the shared radosgw, created in the dialogs and tested with
 * the per-step report (the CORS/ETag steps fail, highlighted with guidance, until the bucket has a
 * CORS rule); editing keeps the stored secret; "make default"; deleting is refused with the
 * server's message while file shares use the config.
 *
 * The S3 half needs S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (the radosgw `npm test`
 * starts, or the shared one); each run makes its own bucket and removes it.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { S3Client } from '@aws-sdk/client-s3';
import { expect, test, uniqueName } from '../support/fixtures.ts';
import {
  listStorageConfigs,
  setDefaultStorage,
  type StorageConfigRecord,
} from '../support/storage-configs.ts';
import { BASE_URL } from '../support/env.ts';
import { pdfOf, uploadShare } from '../support/files.ts';
import { S3, allowBrowserAccess, freshBucket, removeBucket, s3ConfigFields } from '../support/s3.ts';

const row = (page: Page, name: string) =>
  page.locator(`[data-testid=storage-config-row][data-config-name="${name}"]`);

async function openCreateDialog(page: Page): Promise<Locator> {
  await page.getByTestId('create-storage-config').click();
  const dialog = page.getByTestId('storage-config-dialog');
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Runs the storage test of a row and returns the report dialog once it has an answer. */
async function runTest(page: Page, name: string): Promise<Locator> {
  await row(page, name).getByTestId('test-storage-config').click();
  const dialog = page.getByTestId('storage-test-dialog');
  await expect(dialog.getByTestId('storage-test-summary')).toBeVisible({ timeout: 60_000 });
  return dialog;
}

const step = (dialog: Locator, name: string) =>
  dialog.locator(`[data-testid=storage-test-step][data-step=${name}]`);

/** Folders on disk the local configs of this file were given; removed at the end. */
const folders: string[] = [];
const newFolder = () => {
  const folder = path.join(os.tmpdir(), `cubby-e2e-${randomUUID()}`);
  folders.push(folder);
  return folder;
};

test.afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

test.beforeEach(async ({ seedAdmin }) => {
  await seedAdmin();
});

test('creates a local-disk config, tests it step by step, and makes it the default', async ({
  page,
  api,
  request,
}) => {
  const name = uniqueName('disk');
  const folder = newFolder();
  await page.goto('/admin/storage-config');
  await expect(page.getByRole('heading', { level: 1, name: 'Storage configuration' })).toBeVisible();
  // The first-start config is there and is the default.
  const firstStart = row(page, 'Local storage');
  await expect(firstStart.getByTestId('storage-default')).toBeVisible();

  const dialog = await openCreateDialog(page);
  await dialog.getByRole('combobox', { name: 'Provider' }).selectOption('Local');
  // Local disk asks for a folder, not for S3 settings.
  await expect(dialog.getByRole('textbox', { name: 'Endpoint URL' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add storage' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText('Enter the folder on the server.');
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: 'Folder on the server' }).fill('relative/folder');
  await dialog.getByRole('button', { name: 'Add storage' }).click();
  await expect(dialog).toContainText('Enter an absolute path');
  await dialog.getByRole('textbox', { name: 'Folder on the server' }).fill(folder);
  await dialog.getByRole('checkbox', { name: 'Usable by API keys' }).check();
  await dialog.getByRole('button', { name: 'Add storage' }).click();
  await expect(dialog).toBeHidden();

  const created = row(page, name);
  await expect(created.getByTestId('storage-provider')).toHaveText('Local disk');
  await expect(created.getByTestId('storage-public')).toBeVisible();
  await expect(created.getByTestId('storage-location')).toHaveText(folder);
  await expect(created.getByTestId('storage-default')).toHaveCount(0);

  const report = await runTest(page, name);
  await expect(report.getByTestId('storage-test-summary')).toContainText('All checks passed.');
  for (const name of ['list', 'write', 'read', 'delete']) {
    await expect(step(report, name)).toHaveAttribute('data-success', 'true');
    await expect(step(report, name)).toContainText(/\d+ ms/);
  }
  await expect(report.getByTestId('cors-guidance')).toHaveCount(0);
  await report.getByRole('button', { name: 'Close' }).first().click();

  const token = await api.adminToken();
  const original = (await listStorageConfigs(request, token)).find((c) => c.is_default === 1)!;
  try {
    await created.getByTestId('set-default-storage-config').click();
    await expect(created.getByTestId('storage-default')).toBeVisible();
    await expect(firstStart.getByTestId('storage-default')).toHaveCount(0);
    const configs = await listStorageConfigs(request, token);
    expect(configs.filter((c) => c.is_default === 1).map((c) => c.name)).toEqual([name]);
  } finally {
    // Other tests upload to the default config: put the first-start one back.
    await setDefaultStorage(request, token, original.id);
  }
});

test('deleting a config is refused while file shares use it, and allowed once they are gone', async ({
  page,
  api,
  request,
}) => {
  const token = await api.adminToken();
  const name = uniqueName('busy');
  const created = await request.post(`${BASE_URL}/api/s3-configs`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { name, provider_type: 'Local', root_path: newFolder() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const config = ((await created.json()) as { data: StorageConfigRecord }).data;
  // A share kept on that config (the upload names it; fields go before the file).
  const uploaded = await request.post(`${BASE_URL}/api/upload`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      s3_config_id: config.id,
      file: { name: `${name}.txt`, mimeType: 'text/plain', buffer: Buffer.from('kept here') },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
  const share = ((await uploaded.json()) as { data: { id: string } }).data;

  await page.goto('/admin/storage-config');
  await row(page, name).getByTestId('delete-storage-config').click();
  const confirm = page.getByTestId('confirm-dialog');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  // The server's 409 message (with the number of files) is shown; the config stays.
  await expect(confirm.getByRole('alert')).toContainText(/1/);
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, name)).toBeVisible();

  const removed = await request.delete(`${BASE_URL}/api/admin/files/${share.id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(removed.status()).toBe(200);
  await row(page, name).getByTestId('delete-storage-config').click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('toast').filter({ hasText: `Deleted ${name}.` })).toBeVisible();
  await expect(row(page, name)).toHaveCount(0);
});

test('the first-start config shows its name in Chinese too, while the API keeps its name', async ({
  page,
  request,
  api,
}) => {
  const builtIn = (await listStorageConfigs(request, await api.adminToken())).find(
    (config) => config.name === 'Local storage',
  );
  expect(builtIn, 'the config made on first start').toBeDefined();
  await page.addInitScript(() => localStorage.setItem('language', 'zh-CN'));
  await page.goto('/admin/storage-config');
  await expect(row(page, 'Local storage').getByRole('heading', { level: 3 })).toHaveText('本地存储');
  await page.goto('/upload');
  const storage = page.getByRole('combobox', { name: '存储', exact: true });
  await expect(storage).toContainText('本地存储');
  await expect(storage).not.toContainText('Local storage');
});

test.describe('an S3 config on radosgw', () => {
  let client: S3Client;
  let bucket: string;

  test.beforeAll(async () => {
    ({ client, bucket } = await freshBucket('cubby-e2e'));
  });

  test.afterAll(async () => {
    await removeBucket(client, bucket);
  });

  test('is created with its provider preset, reports the missing CORS rule, and keeps its secret on edit', async ({
    page,
    api,
    request,
  }) => {
    test.setTimeout(120_000);
    const name = uniqueName('ceph');
    await page.goto('/admin/storage-config');
    const dialog = await openCreateDialog(page);
    // R2's preset: its region is fixed to auto and path-style is forced.
    await dialog.getByRole('combobox', { name: 'Provider' }).selectOption('Cloudflare R2');
    await expect(dialog.getByRole('textbox', { name: 'Region' })).toHaveValue('auto');
    await expect(dialog.getByRole('textbox', { name: 'Region' })).toBeDisabled();
    await expect(dialog.getByRole('checkbox', { name: 'Path-style addressing' })).toBeDisabled();
    await dialog.getByRole('combobox', { name: 'Provider' }).selectOption('Other S3 Compatible');
    await expect(dialog.getByRole('checkbox', { name: 'Path-style addressing' })).toBeChecked();

    await dialog.getByRole('button', { name: 'Add storage' }).click();
    await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(5);
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(S3.endpoint);
    await dialog.getByRole('textbox', { name: 'Bucket' }).fill(bucket);
    await dialog.getByRole('textbox', { name: 'Region' }).fill(S3.region);
    await dialog.getByRole('textbox', { name: 'Access key ID' }).fill(S3.accessKeyId);
    await dialog.getByLabel('Secret access key').fill(S3.secretAccessKey);
    await dialog.getByRole('textbox', { name: 'Default folder' }).fill('/shares/');
    await dialog.getByRole('button', { name: 'Add storage' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(page, name).getByTestId('storage-location')).toHaveText(`${bucket}/shares`);

    // Never the secret nor the whole key id in what the server answers.
    const token = await api.adminToken();
    const listed = await request.get(`${BASE_URL}/api/s3-configs`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = await listed.text();
    expect(body).not.toContain(S3.secretAccessKey);
    expect(body).not.toContain(S3.accessKeyId);
    const record = (JSON.parse(body) as { data: StorageConfigRecord[] }).data.find((c) => c.name === name)!;
    expect(record.has_secret).toBe(true);
    await expect(row(page, name).getByTestId('storage-access-key')).toHaveText(record.access_key_id_masked!);

    // Without a CORS rule on the bucket the storage works for the server, not for browsers.
    let report = await runTest(page, name);
    for (const ok of ['list', 'write', 'read', 'delete']) {
      await expect(step(report, ok)).toHaveAttribute('data-success', 'true');
    }
    await expect(step(report, 'cors')).toHaveAttribute('data-success', 'false');
    await expect(report.getByTestId('storage-test-summary')).toContainText('Some checks failed.');
    const guidance = report.getByTestId('cors-guidance');
    await expect(guidance).toContainText(new URL(BASE_URL).origin);
    await expect(guidance.locator('pre')).toContainText('"ExposeHeaders"');

    await allowBrowserAccess(client, bucket);
    await report.getByTestId('rerun-storage-test').click();
    await expect(report.getByTestId('storage-test-summary')).toContainText('All checks passed.', {
      timeout: 60_000,
    });
    for (const ok of ['cors', 'etag']) await expect(step(report, ok)).toHaveAttribute('data-success', 'true');
    await expect(report.getByTestId('cors-guidance')).toHaveCount(0);
    await report.getByRole('button', { name: 'Close' }).first().click();

    // Edit: the credential fields start empty and empty keeps the stored ones.
    await row(page, name).getByTestId('edit-storage-config').click();
    const edit = page.getByTestId('storage-config-dialog');
    await expect(edit.getByLabel('Secret access key')).toHaveValue('');
    await expect(edit.getByRole('textbox', { name: 'Access key ID' })).toHaveValue('');
    await expect(edit).toContainText('Leave empty to keep it');
    await edit.getByRole('textbox', { name: 'Name' }).fill(`${name}-renamed`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    report = await runTest(page, `${name}-renamed`);
    await expect(report.getByTestId('storage-test-summary')).toContainText('All checks passed.');
    await report.getByRole('button', { name: 'Close' }).first().click();

    // A wrong secret typed on edit replaces the stored one: the test then fails at the first step.
    await row(page, `${name}-renamed`).getByTestId('edit-storage-config').click();
    await edit.getByLabel('Secret access key').fill('not-the-secret');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    report = await runTest(page, `${name}-renamed`);
    await expect(step(report, 'list')).toHaveAttribute('data-success', 'false');
    await report.getByRole('button', { name: 'Close' }).first().click();

    await row(page, `${name}-renamed`).getByTestId('delete-storage-config').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(row(page, `${name}-renamed`)).toHaveCount(0);
  });
  test('a PDF share in direct mode previews straight from the bucket', async ({ page, api, request }) => {
    const token = await api.adminToken();
    const created = await request.post(`${BASE_URL}/api/s3-configs`, {
      headers: { Authorization: `Bearer ${token}` },
      data: s3ConfigFields(bucket, uniqueName('direct')),
    });
    expect(created.status(), await created.text()).toBe(201);
    const configId = ((await created.json()) as { data: { id: string } }).data.id;
    const share = await uploadShare(request, api, {
      name: `${uniqueName('direct')}.pdf`,
      mimeType: 'application/pdf',
      body: pdfOf('Straight from the bucket'),
      storageConfigId: configId,
      useProxy: false,
    });
    expect(share.use_proxy).toBe(0);

    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const fromBucket = page.waitForResponse(
      (response) =>
        response.url().startsWith(S3.endpoint) && response.request().resourceType() === 'document',
      { timeout: 30_000 },
    );
    await page.goto(`/file/${share.slug}`);
    await expect(page.getByTestId('pdf-preview')).toBeVisible();
    const response = await fromBucket;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    expect(refused).toEqual([]);
  });
});
