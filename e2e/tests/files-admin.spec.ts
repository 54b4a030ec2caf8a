/**
 * File management in the admin area (docs/product.md §2 file-management): search, 50 per page, details (link,
 * copy, QR, open in a new tab), edit (remark, link suffix, max views, password, access mode),
 * delete, batch delete; an API key with the file permission sees only its own shares. At 1280 px
 * the table fits its card. Files are uploaded through the API; every test searches for a token of
 * its own, since other tests upload at the same time.
 */
import type { Page } from '@playwright/test';
import { expect, seedApiKey, test, uniqueName } from '../support/fixtures.ts';
import { uploadShare, type ShareOptions } from '../support/files.ts';
import { BASE_URL } from '../support/env.ts';

/** A small text file; its content is its name unless given. */
const text = (name: string, extra: Partial<ShareOptions> = {}): ShareOptions => ({
  name,
  mimeType: 'text/plain',
  body: Buffer.from(`content of ${name}`),
  ...extra,
});

const rows = (page: Page) => page.getByTestId('file-row');
const row = (page: Page, slug: string) => page.locator(`[data-testid=file-row][data-slug="${slug}"]`);

async function search(page: Page, text: string) {
  await page.getByTestId('file-search').fill(text);
}

test.describe('as the admin', () => {
  test.beforeEach(async ({ seedAdmin }) => {
    await seedAdmin();
  });

  test('pages through 50 at a time and finds files by name, suffix and remark', async ({
    page,
    api,
    request,
  }) => {
    test.setTimeout(120_000);
    const token = uniqueName('many');
    for (let i = 0; i < 51; i++) await uploadShare(request, api, text(`${token}-${i}.txt`));
    const needle = uniqueName('needle');
    await uploadShare(request, api, text('plain.txt', { remark: `about ${needle}` }));
    const suffix = uniqueName('suffix');
    await uploadShare(request, api, text('other.txt', { slug: suffix }));

    await page.goto('/admin/file-management');
    await expect(page.getByRole('heading', { level: 1, name: 'File management' })).toBeVisible();
    await search(page, token);
    await expect(rows(page)).toHaveCount(50);
    await expect(page.getByTestId('pagination')).toContainText('Total: 51');
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 2');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(rows(page)).toHaveCount(1);

    await search(page, needle);
    await expect(rows(page)).toHaveCount(1);
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 1');
    await expect(rows(page).first()).toContainText('plain.txt');
    await search(page, suffix);
    await expect(row(page, suffix)).toBeVisible();
    await search(page, uniqueName('nothing'));
    await expect(page.getByTestId('files-empty')).toContainText('Nothing matches');
  });

  test('shows details with the share link and QR code, and edits a share', async ({ page, api, request }) => {
    const token = uniqueName('edit');
    const share = await uploadShare(
      request,
      api,
      text(`${token}.txt`, {
        body: Buffer.from('hello from the edit test'),
        remark: 'first remark',
        // The widest views text a row shows.
        maxViews: 100000,
      }),
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/admin/file-management');
    await search(page, token);
    const item = row(page, share.slug);
    await expect(item).toContainText(`${token}.txt`);
    await expect(item.getByTestId('file-size')).toHaveText('24 B');
    await expect(item.getByTestId('file-views')).toHaveText('0 / 100000');
    await expect(item.getByTestId('file-mode')).toHaveText('Proxy');
    await expect(item.getByTestId('open-file')).toHaveAttribute('href', `/file/${share.slug}`);
    await expect(item.getByTestId('open-file')).toHaveAttribute('target', '_blank');

    await item.getByTestId('file-details').click();
    const details = page.getByTestId('file-details-dialog');
    await expect(details.getByTestId('file-link')).toHaveText(`${BASE_URL}/file/${share.slug}`);
    await expect(details.getByTestId('qr-code')).toBeVisible();
    await expect(details).toContainText('first remark');
    await details.getByRole('button', { name: 'Close' }).click();

    // At 1280 px the table fits inside its card: nothing scrolls sideways.
    const table = page.getByRole('table', { name: 'File shares' });
    const fits = await table.evaluate((element) => {
      const card = element.closest('section')!;
      return element.getBoundingClientRect().right <= card.getBoundingClientRect().right - 1;
    });
    expect(fits).toBe(true);
    // …and no cell's content spills over into the next one.
    const spilling = await table.evaluate((element) =>
      [...element.querySelectorAll('td, th')]
        .filter(
          (cell) => (cell as HTMLElement).offsetParent !== null && cell.scrollWidth > cell.clientWidth + 1,
        )
        .map((cell) => cell.textContent),
    );
    expect(spilling).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await item.getByTestId('edit-file').click();
    const dialog = page.getByTestId('edit-file-dialog');
    await dialog.getByRole('textbox', { name: 'Remark' }).fill(`renamed ${token}`);
    await dialog.getByRole('textbox', { name: 'Custom link suffix' }).fill('not valid!');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Custom link suffix' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    const slug = `${token}-new`;
    await dialog.getByRole('textbox', { name: 'Custom link suffix' }).fill(slug);
    await dialog.getByRole('spinbutton', { name: 'Max views' }).fill('5');
    await dialog.getByLabel('Password', { exact: true }).fill('s3cret');
    await dialog.getByRole('combobox', { name: 'Access mode' }).selectOption('direct');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();

    const edited = row(page, slug);
    await expect(edited).toContainText(`renamed ${token}`);
    await expect(edited.getByTestId('file-views')).toHaveText('0 / 5');
    await expect(edited.getByTestId('file-mode')).toHaveText('Direct');
    await expect(edited).toContainText('Password');
    // The share answers under its new suffix and asks for the password.
    const info = await request.get(`${BASE_URL}/api/public/files/${slug}`);
    expect(info.status()).toBe(200);
    expect(((await info.json()) as { data: { requires_password: boolean } }).data.requires_password).toBe(
      true,
    );
    expect((await request.get(`${BASE_URL}/api/public/files/${share.slug}`)).status()).toBe(404);

    // Removing the password again.
    await edited.getByTestId('edit-file').click();
    await dialog.getByRole('checkbox', { name: 'Remove the password' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const after = await request.get(`${BASE_URL}/api/public/files/${slug}`);
    expect(((await after.json()) as { data: { requires_password: boolean } }).data.requires_password).toBe(
      false,
    );
  });

  test('deletes one share and a selection, with their files', async ({ page, api, request }) => {
    const token = uniqueName('del');
    const shares = [];
    for (const name of ['a', 'b', 'c', 'd'])
      shares.push(await uploadShare(request, api, text(`${token}-${name}.txt`)));
    const [a, b, c, d] = shares as [
      (typeof shares)[0],
      (typeof shares)[0],
      (typeof shares)[0],
      (typeof shares)[0],
    ];
    await page.goto('/admin/file-management');
    await search(page, token);
    await expect(rows(page)).toHaveCount(4);

    await row(page, a.slug).getByTestId('delete-file').click();
    const confirm = page.getByTestId('confirm-dialog');
    await expect(confirm).toContainText(`${token}-a.txt`);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(row(page, a.slug)).toHaveCount(0);
    await expect(rows(page)).toHaveCount(3);

    await row(page, b.slug).getByRole('checkbox').check();
    await row(page, c.slug).getByRole('checkbox').check();
    await page.getByTestId('batch-delete-files').click();
    await expect(confirm).toContainText('2 file share(s)');
    await confirm.getByRole('button', { name: 'Delete all selected' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Deleted 2 file share(s).' })).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(row(page, d.slug)).toBeVisible();
    for (const gone of [a, b, c]) {
      expect((await request.get(`${BASE_URL}/api/public/files/${gone.slug}`)).status()).toBe(404);
    }
    expect((await request.get(`${BASE_URL}/api/file-download/${d.slug}`)).status()).toBe(200);
  });
});

test('a key with the file permission sees and manages only its own files', async ({ page, api, request }) => {
  const token = uniqueName('own');
  const mine = await api.createKey({ file: true });
  const theirs = await api.createKey({ file: true });
  const own = await uploadShare(request, api, text(`${token}-mine.txt`), mine);
  await uploadShare(request, api, text(`${token}-theirs.txt`), theirs);
  await uploadShare(request, api, text(`${token}-admin.txt`));

  await seedApiKey(page, mine, { text: false, file: true, mount: false });
  await page.goto('/admin/file-management');
  await expect(page.getByRole('heading', { level: 1, name: 'File management' })).toBeVisible();
  await expect(page.getByText('The file shares uploaded with this API key.')).toBeVisible();
  await search(page, token);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, own.slug)).toContainText(`${token}-mine.txt`);

  await row(page, own.slug).getByTestId('delete-file').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('files-empty')).toBeVisible();
  expect((await request.get(`${BASE_URL}/api/public/files/${own.slug}`)).status()).toBe(404);
});
