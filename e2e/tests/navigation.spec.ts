/**
 * Routes, page titles, header and footer (docs/product.md §2).
 */
import { chooseLanguage } from '../support/a11y.ts';
import { expect, seedStorage, test } from '../support/fixtures.ts';
import { SOURCE_URL } from '../support/screens.ts';

const PUBLIC_ROUTES = [
  {
    path: '/',
    title: 'Online clipboard - Cubby',
    zhTitle: '在线剪贴板 - Cubby',
    heading: 'Create a text share',
  },
  { path: '/upload', title: 'File upload - Cubby', zhTitle: '文件上传 - Cubby', heading: 'Upload files' },
  {
    path: '/paste/abc123',
    title: 'View paste - Cubby',
    zhTitle: '查看文本 - Cubby',
    heading: 'Text share not found',
  },
  {
    path: '/file/xyz789',
    title: 'File preview - Cubby',
    zhTitle: '文件预览 - Cubby',
    heading: 'File not found',
  },
  {
    path: '/mount-explorer/photos/2024',
    title: 'Mount explorer - Cubby',
    zhTitle: '挂载浏览器 - Cubby',
    heading: 'Mount explorer',
  },
  { path: '/admin', title: 'Admin panel - Cubby', zhTitle: '管理面板 - Cubby', heading: 'Sign in' },
];

const ADMIN_MODULES = [
  { slug: 'dashboard', name: 'Dashboard', zh: '仪表盘' },
  { slug: 'text-management', name: 'Text management', zh: '文本管理' },
  { slug: 'file-management', name: 'File management', zh: '文件管理' },
  { slug: 'shared-links', name: 'Bundles & folder links', zh: '合集与文件夹链接' },
  { slug: 'storage-config', name: 'Storage configuration', zh: '存储配置' },
  { slug: 'mount-management', name: 'Mount management', zh: '挂载管理' },
  { slug: 'key-management', name: 'API keys', zh: 'API 密钥' },
  { slug: 'audit-log', name: 'Audit log', zh: '审计日志' },
  { slug: 'settings', name: 'Settings', zh: '系统设置' },
];

test.describe('routes and titles', () => {
  for (const route of PUBLIC_ROUTES) {
    test(`${route.path} has its heading and title in both languages`, async ({ page }) => {
      await page.goto(route.path);
      await expect(page.getByRole('heading', { level: 1, name: route.heading })).toBeVisible();
      await expect(page).toHaveTitle(route.title);
      await chooseLanguage(page, '中文');
      await expect(page).toHaveTitle(route.zhTitle);
    });
  }

  test('every admin module has its own title in both languages; /admin defaults to the dashboard', async ({
    page,
    seedAdmin,
  }) => {
    await seedAdmin();
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page).toHaveTitle('Dashboard - Admin panel - Cubby');
    const nav = page.getByRole('navigation', { name: 'Admin sections' });
    for (const module of ADMIN_MODULES) {
      await nav.getByRole('link', { name: module.name, exact: true }).click();
      await expect(page).toHaveURL(`/admin/${module.slug}`);
      await expect(page.getByRole('heading', { level: 1, name: module.name, exact: true })).toBeVisible();
      await expect(page).toHaveTitle(`${module.name} - Admin panel - Cubby`);
      await expect(nav.getByRole('link', { name: module.name, exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
    }
    await chooseLanguage(page, '中文');
    for (const module of ADMIN_MODULES) {
      await page.goto(`/admin/${module.slug}`);
      await expect(page).toHaveTitle(`${module.zh} - 管理面板 - Cubby`);
    }
  });

  test('an unknown admin module says "not found"', async ({ page, seedAdmin }) => {
    await seedAdmin();
    await page.goto('/admin/no-such-module');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page).toHaveTitle('Page not found - Cubby');
  });

  for (const path of ['/no/such/page', '/pastes', '/admin/key-management/extra']) {
    test(`unknown path ${path} redirects home`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL('/');
      await expect(page).toHaveTitle('Online clipboard - Cubby');
    });
  }
});

test.describe('header and footer', () => {
  test('the current page is marked in the main navigation', async ({ page }) => {
    await page.goto('/upload');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Upload' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');
    await nav.getByRole('link', { name: 'Mount Explorer' }).click();
    await expect(page).toHaveURL('/mount-explorer');
    await expect(nav.getByRole('link', { name: 'Mount Explorer' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Upload' })).not.toHaveAttribute('aria-current', 'page');
    await nav.getByRole('link', { name: 'Home' }).click();
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  });

  test('the repository link opens in a new tab without opener or referrer', async ({ page }) => {
    await page.goto('/');
    const link = page.getByRole('link', { name: 'Source code on GitHub (opens in a new tab)' });
    await expect(link).toHaveAttribute('href', SOURCE_URL);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  test('the footer shows the copyright with the current year', async ({ page }) => {
    await page.goto('/');
    const year = await page.evaluate(() => new Date().getFullYear());
    await expect(page.getByTestId('copyright')).toHaveText(`© ${year} Cubby. All rights reserved.`);
  });

  test('under 768 px the navigation is a menu that closes after a link is chosen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // The desktop list is hidden; the menu is closed.
    await expect(page.getByRole('link', { name: 'Upload' })).toBeHidden();

    await toggle.click();
    const close = page.getByRole('button', { name: 'Close menu' });
    await expect(close).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByTestId('mobile-menu');
    await expect(menu.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await menu.getByRole('link', { name: 'Upload' }).click();

    await expect(page).toHaveURL('/upload');
    await expect(page.getByRole('heading', { name: 'Upload files' })).toBeVisible();
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');

    // Escape closes it as well.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  });

  test('at 1280 px the navigation is inline and there is no menu button', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await seedStorage(page, { language: 'en-US' });
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload' }),
    ).toBeVisible();
  });
});
