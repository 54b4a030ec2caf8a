/**
 * Route guards (docs/product.md §2 "Route guard", §5 path permission, §6 roles).
 */
import {
  expect,
  loginAsAdminWithForm,
  seedApiKey as seedKey,
  test,
  type CreatedKey,
} from '../support/fixtures.ts';

test('an API key without any permission is sent home from the admin area and the explorer', async ({
  page,
  api,
}) => {
  const key = await api.createKey({});
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'API key' }).click();
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key.key);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL('/');
  await expect(page.getByTestId('toast')).toContainText('This API key has no permissions for that page.');
  await expect(page).toHaveTitle('Online clipboard - Cubby');

  await page.goto('/admin/text-management');
  await expect(page).toHaveURL('/');
  await page.goto('/mount-explorer/anything');
  await expect(page).toHaveURL('/');
  // Public pages stay open to it.
  await page.goto('/paste/some-slug');
  await expect(page).toHaveURL('/paste/some-slug');
});

test.describe('a mount key limited to /team', () => {
  let key: CreatedKey;
  test.beforeEach(async ({ api, page }) => {
    key = await api.createKey({ mount: true, basicPath: '/team' });
    await seedKey(page, key, { text: false, file: false, mount: true }, '/team');
  });

  for (const [requested, expected] of [
    ['/mount-explorer', '/mount-explorer/team'],
    ['/mount-explorer/other/folder', '/mount-explorer/team'],
    ['/mount-explorer/teamwork', '/mount-explorer/team'],
    ['/mount-explorer/team/%2e%2e/secret', '/mount-explorer/team'],
    ['/mount-explorer/team', '/mount-explorer/team'],
    ['/mount-explorer/team/reports/2024', '/mount-explorer/team/reports/2024'],
    ['/mount-explorer/team/', '/mount-explorer/team/'],
  ] as const) {
    test(`${requested} ends at ${expected}`, async ({ page }) => {
      await page.goto(requested);
      await expect(page).toHaveURL(expected);
      await expect(page.getByRole('heading', { name: 'Mount explorer' })).toBeVisible();
    });
  }

  test('the explorer shows the path inside the base path after a redirect', async ({ page }) => {
    await page.goto('/mount-explorer/elsewhere');
    await expect(page.getByTestId('explorer-breadcrumb')).toHaveAttribute('data-path', '/team/');
  });

  test('its admin area offers its folder links and the mount explorer, starting at its base path', async ({
    page,
  }) => {
    await page.goto('/admin');
    // A mount key makes folder links: its one module opens first.
    await expect(page.getByRole('heading', { level: 1, name: 'Bundles & folder links' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Admin sections' });
    await expect(nav.getByRole('link')).toHaveText(['Bundles & folder links', 'Mount Explorer']);
    await nav.getByRole('link', { name: 'Mount Explorer' }).click();
    await expect(page).toHaveURL('/mount-explorer/team');
  });

  test('admin-only modules send it back to what it may use', async ({ page }) => {
    await page.goto('/admin/key-management');
    await expect(page).toHaveURL('/admin');
    await expect(page.getByRole('heading', { name: 'API keys' })).toHaveCount(0);
  });
});

test('a key base path with non-ASCII characters redirects to the encoded path', async ({ page, api }) => {
  const key = await api.createKey({ mount: true, basicPath: '/团队/文档' });
  await seedKey(page, key, { text: false, file: false, mount: true }, '/团队/文档');
  await page.goto('/mount-explorer/other');
  await expect(page.getByTestId('explorer-breadcrumb')).toHaveAttribute('data-path', '/团队/文档/');
  await page.goto('/mount-explorer/%E5%9B%A2%E9%98%9F/%E6%96%87%E6%A1%A3/sub');
  await expect(page.getByTestId('explorer-breadcrumb')).toHaveAttribute('data-path', '/团队/文档/sub/');
});

test('an admin may open any explorer path', async ({ page, seedAdmin }) => {
  await seedAdmin();
  await page.goto('/mount-explorer/anywhere/at/all');
  await expect(page).toHaveURL('/mount-explorer/anywhere/at/all');
});

test('a visitor on an admin module sees the login form, then the module after signing in', async ({
  page,
}) => {
  await page.goto('/admin/key-management');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await loginAsAdminWithForm(page);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page).toHaveURL('/admin/key-management');
});

test('a key with text permission is sent from an admin-only module to text management', async ({
  page,
  api,
}) => {
  const key = await api.createKey({ text: true });
  await seedKey(page, key, { text: true, file: false, mount: false }, '/');
  await page.goto('/admin/settings');
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Text management' })).toBeVisible();
});
