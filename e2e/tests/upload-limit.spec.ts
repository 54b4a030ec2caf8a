/**
 * The largest upload size on the upload page (docs/product.md §5): a file over it is refused
 * before any request, the others go. The limit binds every upload on the server while it is
 * lowered, so it runs in a project of its own, after the main one and the share policy
 * (e2e/playwright.config.ts).
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { putSystemSettings, randomBytesOf } from '../support/files.ts';

const item = (page: Page, name: string) => page.getByTestId('upload-item').filter({ hasText: name });

test.beforeEach(async ({ seedAdmin }) => {
  await seedAdmin();
});

test('a file over the largest upload size is refused before any request', async ({ page, api, request }) => {
  await putSystemSettings(request, api, { max_upload_size: 1, max_upload_size_unit: 'KB' });
  try {
    const calls: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/(s3|upload)/.test(r.url())) calls.push(r.url());
    });
    await page.goto('/upload');
    await expect(page.getByTestId('max-upload-size')).toContainText('1 KB');
    await page.getByTestId('file-input').setInputFiles([
      { name: 'big.bin', mimeType: 'application/octet-stream', buffer: randomBytesOf(2048) },
      { name: 'small.bin', mimeType: 'application/octet-stream', buffer: randomBytesOf(100) },
    ]);
    await expect(item(page, 'big.bin').getByTestId('item-too-large')).toBeVisible();
    await expect(page.getByTestId('start-upload')).toHaveText('Upload (1)');
    await page.getByTestId('start-upload').click();
    await expect(item(page, 'small.bin')).toHaveAttribute('data-status', 'success');
    await expect(item(page, 'big.bin')).toHaveAttribute('data-status', 'pending');
    expect(calls.filter((url) => url.includes('presign'))).toHaveLength(1);
  } finally {
    await putSystemSettings(request, api, { max_upload_size: 100, max_upload_size_unit: 'MB' });
  }
});
