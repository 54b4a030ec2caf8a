/**
 * "Clear expired" in text management (docs/product.md §2 text-management). It deletes every expired or
 * used-up share, other tests' included, and moves the server clock; so it runs in a project of its own,
 * after the main one (playwright.config.ts).
 */
import { expect, test, uniqueName } from '../support/fixtures.ts';
import { row, search } from '../support/paste-rows.ts';

test.beforeEach(async ({ seedAdmin }) => {
  await seedAdmin();
});

test('clears expired and used-up shares and keeps the others', async ({ page, api }) => {
  const token = uniqueName('clear');
  const now = await api.advanceClock(0);
  await api.createPaste({
    content: 'expiring',
    slug: `${token}-old`,
    expiresAt: new Date(now.getTime() + 60_000).toISOString(),
  });
  await api.createPaste({ content: 'kept', slug: `${token}-kept` });
  await api.createPaste({ content: 'once', slug: `${token}-once`, maxViews: 1 });
  expect(await api.readPaste(`${token}-once`)).toBe(200);

  await api.advanceClock(120_000);
  await page.goto('/admin/text-management');
  await search(page, token);
  await expect(row(page, `${token}-old`).getByTestId('paste-status')).toHaveText('Expired');
  await expect(row(page, `${token}-once`)).toBeVisible();
  await page.getByTestId('clear-expired').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Clear' }).click();
  await expect(
    page.getByTestId('toast').filter({ hasText: /Removed [1-9]\d* expired or used-up share/ }),
  ).toBeVisible();
  await expect(row(page, `${token}-old`)).toHaveCount(0);
  await expect(row(page, `${token}-once`)).toHaveCount(0);
  await expect(row(page, `${token}-kept`)).toBeVisible();
});
