/**
 * The upload page, /upload (docs/product.md §2, §4, §5, §8): files go straight to storage — small ones with
 * one presigned PUT, large ones as a multipart upload (5 MiB parts here, through the localStorage
 * tuning override), which survives a reload and then sends only the missing parts; URL uploads
 * download in the browser (or through the proxy without CORS); limits, validation and failures are
 * shown and clean up after themselves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, Request } from '@playwright/test';
import { expect, seedApiKey, seedStorage, test, uniqueName } from '../support/fixtures.ts';
import {
  adminFiles,
  downloadBytes,
  publicFile,
  putSystemSettings,
  randomBytesOf,
  sha256,
  startSourceServer,
  type FileShareData,
} from '../support/files.ts';
import { BASE_URL } from '../support/env.ts';

const MiB = 1024 * 1024;
const TUNING = JSON.stringify({ multipartThreshold: MiB, partSize: 5 * MiB });

/** A file on disk with a fixed modification time, so picking it twice gives the same File identity. */
function fileOnDisk(name: string, bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-upload-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  const when = new Date('2026-01-02T03:04:05Z');
  fs.utimesSync(file, when, when);
  return file;
}

const item = (page: Page, name: string) => page.getByTestId('upload-item').filter({ hasText: name });

async function slugOf(page: Page, name: string): Promise<string> {
  const href = await item(page, name).getByTestId('item-link').getAttribute('href');
  return decodeURIComponent(new URL(href!).pathname.replace(/^\/file\//, ''));
}

/** Part numbers of the multipart PUTs that reached storage (local driver: `…/part?…&part=N`). */
function partNumber(request: Request): number | null {
  const url = new URL(request.url());
  if (request.method() !== 'PUT' || !url.pathname.endsWith('/part')) return null;
  return Number(url.searchParams.get('part'));
}

/** The part numbers of the multipart PUTs the page sends from now on, in order. */
function recordParts(page: Page): number[] {
  const sent: number[] = [];
  page.on('request', (r) => {
    const n = partNumber(r);
    if (n !== null) sent.push(n);
  });
  return sent;
}

/**
 * Lets part 1 through and holds every other part (it never reaches the server) until `release()`;
 * `held()` counts the parts held so far.
 */
async function holdPartsAfterFirst(page: Page): Promise<{ held(): number; release(): void }> {
  let holding = true;
  let held = 0;
  await page.route('**/api/storage/local/*/part?**', async (route) => {
    if (!holding || partNumber(route.request()) === 1) await route.continue();
    else held++;
  });
  return { held: () => held, release: () => (holding = false) };
}

test.describe('as the admin', () => {
  test.beforeEach(async ({ seedAdmin }) => {
    await seedAdmin();
  });

  test('shows the largest upload size and the default storage before anything is uploaded', async ({
    page,
  }) => {
    const limit = await (await page.request.get(`${BASE_URL}/api/system/max-upload-size`)).json();
    await page.goto('/upload');
    await expect(page.getByRole('heading', { level: 1, name: 'Upload files' })).toBeVisible();
    const mb = (limit as { data: { max_upload_size: number } }).data.max_upload_size;
    await expect(page.getByTestId('max-upload-size')).toContainText(`${mb} MB`);
    await expect(page.locator('select[name=storage] option:checked')).toContainText('(default)');
  });

  test('a small file goes to storage in one PUT, then its link, copy, QR and the recent list work', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = `${uniqueName('note')}.txt`;
    const body = Buffer.from('hello from the upload page\n');
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(new URL(r.url()).pathname);
    });
    await page.goto('/upload');
    await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'text/plain', buffer: body });
    await expect(item(page, name).getByTestId('item-status')).toHaveText('Waiting');
    await page.locator('input[name=remark]').fill('from e2e');
    await page.locator('input[name=maxViews]').fill('5');
    await page.locator('select[name=expiry]').selectOption('7d');
    await page.getByTestId('start-upload').click();
    await expect(item(page, name)).toHaveAttribute('data-status', 'success');

    // The bytes went straight to storage with one PUT (to the single-use URL of a one-part upload);
    // no form upload through the API.
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatch(/\/api\/storage\/local\/[^/]+\/part$/);

    const slug = await slugOf(page, name);
    const share = (await publicFile(request, slug)) as FileShareData;
    expect(share).toMatchObject({ filename: name, size: body.length, max_views: 5, views: 0 });
    expect(Date.parse(share.expires_at!) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(await downloadBytes(request, slug)).toEqual(body);

    await item(page, name).getByTestId('item-copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${BASE_URL}/file/${slug}`);
    await item(page, name).getByTestId('item-qr').click();
    await expect(item(page, name).getByTestId('qr-code')).toBeVisible();
    await expect(page.getByTestId('recent-upload').first()).toContainText(name);

    // The recent list survives a reload (kept on this device).
    await page.reload();
    await expect(page.getByTestId('recent-upload').first()).toContainText(name);
    await page.getByTestId('recent-upload').first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/file/${slug}$`));
  });

  test('several files upload one after another, each with its own link', async ({ page }) => {
    const names = ['a', 'b', 'c'].map((n) => `${uniqueName(n)}.bin`);
    await page.goto('/upload');
    await page.getByTestId('file-input').setInputFiles(
      names.map((name, i) => ({
        name,
        mimeType: 'application/octet-stream',
        buffer: randomBytesOf(1000 + i, i + 1),
      })),
    );
    await expect(page.getByTestId('start-upload')).toHaveText('Upload (3)');
    await page.getByTestId('start-upload').click();
    for (const name of names) await expect(item(page, name)).toHaveAttribute('data-status', 'success');
    const slugs = await Promise.all(names.map((name) => slugOf(page, name)));
    expect(new Set(slugs).size).toBe(3);
    const announcer = page.getByTestId('upload-announcer');
    await expect(announcer).toHaveText('3 files uploaded.');

    // A second batch is announced on its own: the earlier one stays listed but is not counted again.
    const next = `${uniqueName('d')}.bin`;
    await page.getByTestId('file-input').setInputFiles({
      name: next,
      mimeType: 'application/octet-stream',
      buffer: randomBytesOf(900, 9),
    });
    await page.getByTestId('start-upload').click();
    await expect(item(page, next)).toHaveAttribute('data-status', 'success');
    await expect(page.getByTestId('upload-item')).toHaveCount(4);
    await expect(announcer).toHaveText('1 file uploaded.');
  });

  test('settings are validated: link suffix rules, one file per custom suffix, a taken suffix', async ({
    page,
  }) => {
    await page.goto('/upload');
    await page.getByTestId('file-input').setInputFiles([
      { name: 'one.txt', mimeType: 'text/plain', buffer: Buffer.from('1') },
      { name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from('2') },
    ]);
    const slug = page.locator('input[name=slug]');
    await slug.fill('not valid!');
    await page.locator('input[name=maxViews]').fill('-1');
    await page.getByTestId('start-upload').click();
    await expect(slug).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('input[name=maxViews]')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('upload-form-error')).toHaveText('Check the share settings.');
    await slug.fill('admin');
    await page.getByTestId('start-upload').click();
    await expect(page.getByText('This suffix is reserved by the system; choose another.')).toBeVisible();
    await slug.fill(uniqueName('mine'));
    await page.locator('input[name=maxViews]').fill('');
    await page.getByTestId('start-upload').click();
    await expect(
      page.getByText('A custom link suffix names one share: upload one file at a time to use it.'),
    ).toBeVisible();
    await expect(page.getByTestId('upload-item').filter({ hasText: 'one.txt' })).toHaveAttribute(
      'data-status',
      'pending',
    );

    // One file with a suffix that is already taken: the server's 409 message is shown.
    const taken = uniqueName('taken');
    await item(page, 'two.txt').getByTestId('item-remove').click();
    await slug.fill(taken);
    await page.getByTestId('start-upload').click();
    await expect(item(page, 'one.txt')).toHaveAttribute('data-status', 'success');
    expect(await slugOf(page, 'one.txt')).toBe(taken);
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'three.txt', mimeType: 'text/plain', buffer: Buffer.from('3') });
    await page.getByTestId('start-upload').click();
    await expect(item(page, 'three.txt')).toHaveAttribute('data-status', 'error');
    await expect(item(page, 'three.txt').getByTestId('item-error')).not.toBeEmpty();
  });

  test('a PUT refused by storage fails the item and deletes the half-made share', async ({
    page,
    request,
    api,
  }) => {
    const name = `${uniqueName('refused')}.txt`;
    await page.route('**/api/storage/local/*/part?**', (route) =>
      route.fulfill({ status: 403, body: 'denied' }),
    );
    const deletes: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'DELETE') deletes.push(new URL(r.url()).pathname);
    });
    await page.goto('/upload');
    await page
      .getByTestId('file-input')
      .setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from('x') });
    await page.getByTestId('start-upload').click();
    await expect(item(page, name)).toHaveAttribute('data-status', 'error');
    await expect(item(page, name).getByTestId('item-error')).toHaveText(
      'The storage refused the upload (HTTP 403).',
    );
    await expect.poll(() => deletes.length).toBe(1);
    expect(deletes[0]).toMatch(/^\/api\/admin\/files\/[^/]+$/);
    expect(await adminFiles(request, api, name)).toEqual([]);

    // Retry works once storage accepts again.
    await page.unroute('**/api/storage/local/*/part?**');
    await item(page, name).getByTestId('item-retry').click();
    await expect(item(page, name)).toHaveAttribute('data-status', 'success');
  });

  test('a large file goes multipart: 5 MiB parts straight to storage, at most 3 at once, each reported', async ({
    page,
    request,
  }) => {
    await seedStorage(page, { 'cubby.upload.tuning': TUNING });
    const bytes = randomBytesOf(11 * MiB + 123, 7);
    const name = `${uniqueName('big')}.bin`;
    const parts: number[] = [];
    const reported: number[] = [];
    let inFlight = 0;
    let peak = 0;
    page.on('request', (r) => {
      const n = partNumber(r);
      if (n !== null) {
        parts.push(n);
        peak = Math.max(peak, ++inFlight);
      }
      if (r.url().endsWith('/api/s3/multipart/part'))
        reported.push((r.postDataJSON() as { partNumber: number }).partNumber);
    });
    const done = (r: Request) => {
      if (partNumber(r) !== null) inFlight--;
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    await page.goto('/upload');
    await page.getByTestId('file-input').setInputFiles(fileOnDisk(name, bytes));
    await page.getByTestId('start-upload').click();
    await expect(item(page, name)).toHaveAttribute('data-status', 'success', { timeout: 30_000 });
    expect([...parts].sort()).toEqual([1, 2, 3]);
    expect([...reported].sort()).toEqual([1, 2, 3]);
    expect(peak).toBeLessThanOrEqual(3);
    const slug = await slugOf(page, name);
    expect(sha256(await downloadBytes(request, slug))).toBe(sha256(bytes));
    // Finished uploads are not offered for resumption.
    expect(await page.evaluate(() => localStorage.getItem('cubby.upload.resumable'))).toBe('[]');
  });

  test('a failed part is retried and the upload still succeeds', async ({ page, request }) => {
    await seedStorage(page, { 'cubby.upload.tuning': TUNING });
    const bytes = randomBytesOf(6 * MiB, 3);
    const name = `${uniqueName('flaky')}.bin`;
    let failed = false;
    const attempts: number[] = [];
    await page.route('**/api/storage/local/*/part?**', async (route) => {
      const n = partNumber(route.request())!;
      attempts.push(n);
      if (n === 2 && !failed) {
        failed = true;
        await route.fulfill({ status: 500, body: 'try again' });
        return;
      }
      await route.continue();
    });
    await page.goto('/upload');
    await page.getByTestId('file-input').setInputFiles(fileOnDisk(name, bytes));
    await page.getByTestId('start-upload').click();
    await expect(item(page, name)).toHaveAttribute('data-status', 'success', { timeout: 30_000 });
    expect(attempts.filter((n) => n === 2)).toHaveLength(2);
    expect(sha256(await downloadBytes(request, await slugOf(page, name)))).toBe(sha256(bytes));
  });

  test('after a reload in the middle, picking the same file resumes and sends only the missing parts', async ({
    page,
    request,
  }) => {
    await seedStorage(page, { 'cubby.upload.tuning': TUNING });
    const bytes = randomBytesOf(11 * MiB, 11);
    const name = `${uniqueName('resume')}.bin`;
    const file = fileOnDisk(name, bytes);
    const parts = await holdPartsAfterFirst(page);
    await page.goto('/upload');
    const partOneReported = page.waitForResponse(
      (r) =>
        r.url().endsWith('/api/s3/multipart/part') &&
        (r.request().postDataJSON() as { partNumber: number }).partNumber === 1,
    );
    await page.getByTestId('file-input').setInputFiles(file);
    await page.getByTestId('start-upload').click();
    await partOneReported;
    await expect.poll(parts.held).toBe(2);
    await page.reload();
    parts.release();

    const sent = recordParts(page);
    await page.getByTestId('file-input').setInputFiles(file);
    await expect(item(page, name).getByTestId('item-resume')).toBeVisible();
    await page.getByTestId('start-upload').click();
    await expect(item(page, name)).toHaveAttribute('data-status', 'success', { timeout: 30_000 });
    expect([...sent].sort()).toEqual([2, 3]);
    expect(sha256(await downloadBytes(request, await slugOf(page, name)))).toBe(sha256(bytes));
  });

  test('"start over" drops the interrupted upload and sends every part again', async ({ page }) => {
    await seedStorage(page, { 'cubby.upload.tuning': TUNING });
    const name = `${uniqueName('again')}.bin`;
    const file = fileOnDisk(name, randomBytesOf(6 * MiB, 5));
    const parts = await holdPartsAfterFirst(page);
    await page.goto('/upload');
    await page.getByTestId('file-input').setInputFiles(file);
    await page.getByTestId('start-upload').click();
    await expect.poll(parts.held).toBe(1);
    await page.reload();
    parts.release();

    const sent = recordParts(page);
    const aborted = page.waitForRequest((r) => r.url().endsWith('/api/s3/multipart/abort'));
    await page.getByTestId('file-input').setInputFiles(file);
    await item(page, name).getByTestId('item-start-over').click();
    await aborted;
    await expect(item(page, name).getByTestId('item-resume')).toHaveCount(0);
    await page.getByTestId('start-upload').click();
    await expect(item(page, name)).toHaveAttribute('data-status', 'success', { timeout: 30_000 });
    expect([...sent].sort()).toEqual([1, 2]);
  });

  test('cancel stops a multipart upload and aborts its session', async ({ page }) => {
    await seedStorage(page, { 'cubby.upload.tuning': TUNING });
    const name = `${uniqueName('cancel')}.bin`;
    const held: { abort(): Promise<void> }[] = [];
    await page.route('**/api/storage/local/*/part?**', (route) => {
      held.push(route);
    });
    await page.goto('/upload');
    await page.getByTestId('file-input').setInputFiles(fileOnDisk(name, randomBytesOf(6 * MiB, 9)));
    await page.getByTestId('start-upload').click();
    await expect(item(page, name).getByTestId('item-progress')).toBeVisible();
    await expect.poll(() => held.length).toBe(2);
    const aborted = page.waitForResponse((r) => r.url().endsWith('/api/s3/multipart/abort'));
    await item(page, name).getByTestId('item-cancel').click();
    expect((await aborted).status()).toBe(200);
    await expect(item(page, name)).toHaveAttribute('data-status', 'error');
    await expect(item(page, name).getByTestId('item-error')).toHaveText(
      'The request was cancelled by the user.',
    );
    expect(await page.evaluate(() => localStorage.getItem('cubby.upload.resumable'))).toBe('[]');
    await Promise.all(held.map((route) => route.abort().catch(() => {})));
  });

  test('a storage without room answers 507: the file size, free space and capacity are shown', async ({
    page,
    request,
    api,
  }) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-small-storage-'));
    const name = uniqueName('tiny storage');
    const created = await request.post(`${BASE_URL}/api/s3-configs`, {
      headers: { Authorization: `Bearer ${await api.adminToken()}` },
      data: { name, provider_type: 'Local', root_path: root, total_storage_bytes: 1000 },
    });
    expect(created.status(), await created.text()).toBe(201);
    const config = ((await created.json()) as { data: { id: string } }).data;
    try {
      await page.goto('/upload');
      await page.locator('select[name=storage]').selectOption(config.id);
      await page.getByTestId('file-input').setInputFiles({
        name: 'full.bin',
        mimeType: 'application/octet-stream',
        buffer: randomBytesOf(3000),
      });
      await page.getByTestId('start-upload').click();
      await expect(item(page, 'full.bin')).toHaveAttribute('data-status', 'error');
      await expect(item(page, 'full.bin').getByTestId('storage-full')).toHaveText(
        'File size 2.9 KB, free space 1000 B, total capacity 1000 B.',
      );
    } finally {
      await request.delete(`${BASE_URL}/api/s3-configs/${config.id}`, {
        headers: { Authorization: `Bearer ${await api.adminToken()}` },
      });
    }
  });
});

test.describe('from a URL', () => {
  test.beforeEach(async ({ seedAdmin }) => {
    await seedAdmin();
  });

  for (const cors of [true, false]) {
    test(`analyses the URL, downloads it ${cors ? 'directly (CORS)' : 'through the proxy (no CORS)'} and stores it`, async ({
      page,
      request,
      api,
    }) => {
      const body = Buffer.from(`# Fetched ${cors ? 'directly' : 'via proxy'}\n`);
      const source = await startSourceServer({ '/docs/readme.md': { body, type: 'text/markdown' } }, cors);
      await putSystemSettings(request, api, { url_allowlist: source.host });
      try {
        const proxied: string[] = [];
        page.on('request', (r) => {
          if (r.url().includes('/api/url/proxy')) proxied.push(r.url());
        });
        await page.goto('/upload');
        await page.getByTestId('tab-url').click();
        await page.locator('input[name=url]').fill('ftp://example.com/x');
        await page.getByTestId('analyse-url').click();
        await expect(page.getByText('Enter an http:// or https:// address.')).toBeVisible();
        await page.locator('input[name=url]').fill(source.url('/docs/readme.md'));
        await page.getByTestId('analyse-url').click();
        await expect(page.getByTestId('url-info')).toContainText('text/markdown');
        await expect(page.locator('input[name=filename]')).toHaveValue('readme.md');
        const name = `${uniqueName('readme')}.md`;
        await page.locator('input[name=filename]').fill(name);
        await page.getByTestId('upload-url').click();
        await expect(item(page, name)).toHaveAttribute('data-status', 'success');
        expect(proxied.length > 0).toBe(!cors);
        expect(await downloadBytes(request, await slugOf(page, name))).toEqual(body);
      } finally {
        await putSystemSettings(request, api, { url_allowlist: '' });
        await source.close();
      }
    });
  }

  test('a large download is cut into parts as it arrives and uploaded multipart', async ({
    page,
    request,
    api,
  }) => {
    await seedStorage(page, { 'cubby.upload.tuning': TUNING });
    const body = randomBytesOf(11 * MiB, 21);
    const source = await startSourceServer({ '/big.bin': { body, type: 'application/octet-stream' } }, true);
    await putSystemSettings(request, api, { url_allowlist: source.host });
    try {
      const parts = recordParts(page);
      await page.goto('/upload');
      await page.getByTestId('tab-url').click();
      await page.locator('input[name=url]').fill(source.url('/big.bin'));
      await page.getByTestId('analyse-url').click();
      await expect(page.getByTestId('url-size')).toHaveText('Size: 11 MB');
      await page.getByTestId('upload-url').click();
      await expect(item(page, 'big.bin')).toHaveAttribute('data-status', 'success', { timeout: 30_000 });
      expect([...parts].sort()).toEqual([1, 2, 3]);
      expect(sha256(await downloadBytes(request, await slugOf(page, 'big.bin')))).toBe(sha256(body));
    } finally {
      await putSystemSettings(request, api, { url_allowlist: '' });
      await source.close();
    }
  });
});

test.describe('permissions', () => {
  test('a visitor is asked to sign in and cannot pick files', async ({ page }) => {
    await page.goto('/upload');
    await expect(page.getByTestId('upload-notice')).toContainText('Sign in');
    await expect(page.getByTestId('choose-files')).toBeDisabled();
  });

  test('a key without the file permission sees the notice too', async ({ page, api }) => {
    const key = await api.createKey({ text: true });
    await seedApiKey(page, key, { text: true, file: false, mount: false });
    await page.goto('/upload');
    await expect(page.getByTestId('upload-notice')).toContainText('may not upload files');
  });

  test('a key with the file permission uploads; a failed upload is cleaned up through /api/user/files', async ({
    page,
    api,
  }) => {
    const key = await api.createKey({ file: true });
    await seedApiKey(page, key, { text: false, file: true, mount: false });
    await page.goto('/upload');
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'key.txt', mimeType: 'text/plain', buffer: Buffer.from('k') });
    await page.getByTestId('start-upload').click();
    await expect(item(page, 'key.txt')).toHaveAttribute('data-status', 'success');

    await page.route('**/api/storage/local/*/part?**', (route) => route.fulfill({ status: 500 }));
    const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE');
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'fail.txt', mimeType: 'text/plain', buffer: Buffer.from('f') });
    await page.getByTestId('start-upload').click();
    const response = await deleted;
    expect(new URL(response.url()).pathname).toMatch(/^\/api\/user\/files\/[^/]+$/);
    expect(response.status()).toBe(200);
    await expect(item(page, 'fail.txt')).toHaveAttribute('data-status', 'error');
  });
});
