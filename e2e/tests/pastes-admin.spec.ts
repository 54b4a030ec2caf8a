/**
 * Text management in the admin area (docs/product.md §2 text-management): search, pagination (10 per page),
 * preview, edit, delete, batch delete; an API key sees and manages only its own. (Clearing expired
 * shares removes everyone's, so it runs on its own: pastes-clear-expired.spec.ts.) Every test
 * searches for a token of its own, since other tests create pastes at the same time.
 */
import { expect, seedApiKey, test, uniqueName } from '../support/fixtures.ts';
import { row, rows, search } from '../support/paste-rows.ts';

test.describe('as the admin', () => {
  test.beforeEach(async ({ seedAdmin }) => {
    await seedAdmin();
  });

  test('searches, pages through 10 at a time, previews and edits', async ({ page, api }) => {
    const token = uniqueName('batch');
    for (let i = 0; i < 12; i++) {
      await api.createPaste({
        content: `# Item ${i}\n\nbody ${i}`,
        slug: `${token}-${i}`,
        remark: `remark ${token}`,
      });
    }
    const needle = uniqueName('needle');
    await api.createPaste({ content: `the ${needle} is inside`, slug: uniqueName('haystack') });
    await page.goto('/admin/text-management');
    await expect(page.getByRole('heading', { level: 1, name: 'Text management' })).toBeVisible();

    await search(page, token);
    await expect(rows(page)).toHaveCount(10);
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 2');
    await expect(page.getByTestId('pagination')).toContainText('Total: 12');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 of 2');
    await expect(rows(page)).toHaveCount(2);

    // Search covers content too, and a new search starts on page 1.
    await search(page, needle);
    await expect(rows(page)).toHaveCount(1);
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 1');

    await search(page, `${token}-3`);
    await expect(rows(page)).toHaveCount(1);
    const item = row(page, `${token}-3`);
    await expect(item.getByTestId('paste-status')).toHaveText('Active');
    await expect(item.getByTestId('paste-views')).toHaveText('0 / ∞');
    await item.getByTestId('preview-paste').click();
    const preview = page.getByTestId('preview-paste-dialog');
    await expect(preview.getByRole('heading', { name: 'Item 3' })).toBeVisible();
    await preview.getByRole('button', { name: 'Close' }).click();

    await item.getByTestId('edit-paste').click();
    const dialog = page.getByTestId('edit-paste-dialog');
    await dialog.getByRole('textbox', { name: 'Remark' }).fill(`renamed ${token}`);
    await dialog.getByRole('spinbutton', { name: 'Max views' }).fill('4');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(item).toContainText(`renamed ${token}`);
    await expect(item.getByTestId('paste-views')).toHaveText('0 / 4');
    // Management reads counted no view.
    expect((await api.pasteDetail(`${token}-3`)).views).toBe(0);
  });

  test('deletes one and deletes a selection', async ({ page, api }) => {
    const token = uniqueName('del');
    for (const name of ['a', 'b', 'c', 'd'])
      await api.createPaste({ content: name, slug: `${token}-${name}` });
    await page.goto('/admin/text-management');
    await search(page, token);
    await expect(rows(page)).toHaveCount(4);

    await row(page, `${token}-a`).getByTestId('delete-paste').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(row(page, `${token}-a`)).toHaveCount(0);
    await expect(rows(page)).toHaveCount(3);

    await row(page, `${token}-b`).getByRole('checkbox').check();
    await row(page, `${token}-c`).getByRole('checkbox').check();
    await page.getByTestId('batch-delete').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText('2 share(s)');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete all selected' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Deleted 2 share(s).' })).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(row(page, `${token}-d`)).toBeVisible();
  });
});

test('a key with the text permission sees and manages only its own pastes', async ({ page, api }) => {
  const token = uniqueName('own');
  const mine = await api.createKey({ text: true });
  const theirs = await api.createKey({ text: true });
  await api.createPaste({ content: 'x', slug: `${token}-mine` }, mine);
  await api.createPaste({ content: 'x', slug: `${token}-theirs` }, theirs);
  await api.createPaste({ content: 'x', slug: `${token}-admin` });

  await seedApiKey(page, mine, { text: true, file: false, mount: false });
  await page.goto('/admin/text-management');
  await expect(page.getByRole('heading', { level: 1, name: 'Text management' })).toBeVisible();
  await search(page, token);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, `${token}-mine`)).toContainText(mine.name);
  await expect(page.getByTestId('clear-expired')).toHaveCount(0);

  await row(page, `${token}-mine`).getByTestId('delete-paste').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('pastes-empty')).toBeVisible();
  expect(await api.readPaste(`${token}-theirs`)).toBe(200);
});
