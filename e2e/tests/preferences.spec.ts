/**
 * Language and theme preferences (docs/product.md §1, §3 storage keys, §4 theme cycle).
 */
import type { Page } from '@playwright/test';
import { chooseLanguage } from '../support/a11y.ts';
import { expect, seedStorage, storageValue, test } from '../support/fixtures.ts';

test.describe('language', () => {
  test('the chosen language survives a reload and drives <html lang> and the title', async ({ page }) => {
    await page.goto('/');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }),
    ).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    await expect(page).toHaveTitle('Online clipboard - Cubby');

    await chooseLanguage(page, '中文');

    const nav = page.getByRole('navigation', { name: '主导航' });
    await expect(nav.getByRole('link', { name: '首页' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page).toHaveTitle('在线剪贴板 - Cubby');
    expect(await storageValue(page, 'language')).toBe('zh-CN');

    await page.reload();
    await expect(nav.getByRole('link', { name: '首页' })).toBeVisible();
    await expect(page).toHaveTitle('在线剪贴板 - Cubby');

    await chooseLanguage(page, 'English');
    await expect(page).toHaveTitle('Online clipboard - Cubby');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  });

  for (const [locale, expected] of [
    ['zh-CN', '在线剪贴板 - Cubby'],
    ['zh-TW', '在线剪贴板 - Cubby'],
    ['en-GB', 'Online clipboard - Cubby'],
    ['fr-FR', 'Online clipboard - Cubby'],
  ] as const) {
    test(`without a stored choice the browser language ${locale} decides`, async ({ browser }) => {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto('/');
      await expect(page).toHaveTitle(expected);
      await context.close();
    });
  }

  test('the server answers in the UI language (X-Cubby-Lang follows the switch)', async ({ page }) => {
    await seedStorage(page, { language: 'zh-CN' });
    await page.goto('/admin');
    const zhRequest = page.waitForRequest((request) => request.url().endsWith('/api/admin/login'));
    await page.getByRole('textbox', { name: '用户名' }).fill('admin');
    await page.getByRole('textbox', { name: '密码', exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: '登录' }).click();
    expect((await zhRequest).headers()['x-cubby-lang']).toBe('zh-CN');
    await expect(page.getByTestId('login-error')).toHaveText(/用户名或密码错误/);
  });
});

test.describe('theme', () => {
  const html = (page: Page) => page.locator('html');

  test('cycles auto → light → dark → auto, survives a reload, and auto follows the system', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    const toggle = page.getByTestId('theme-toggle');

    // auto: follows the system (dark now), live.
    await expect(toggle).toHaveAccessibleName('Theme: Auto. Switch to Light');
    await expect(html(page)).toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html(page)).not.toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(html(page)).toHaveClass(/\bdark\b/);

    // light: ignores the dark system preference, also after a reload.
    await toggle.click();
    await expect(toggle).toHaveAccessibleName('Theme: Light. Switch to Dark');
    await expect(html(page)).not.toHaveClass(/\bdark\b/);
    expect(await storageValue(page, 'themeMode')).toBe('light');
    await page.reload();
    await expect(html(page)).not.toHaveClass(/\bdark\b/);
    await expect(toggle).toHaveAccessibleName('Theme: Light. Switch to Dark');

    // dark: ignores a light system preference, also after a reload.
    await page.emulateMedia({ colorScheme: 'light' });
    await toggle.click();
    await expect(html(page)).toHaveClass(/\bdark\b/);
    expect(await storageValue(page, 'themeMode')).toBe('dark');
    await page.reload();
    await expect(html(page)).toHaveClass(/\bdark\b/);
    await expect(toggle).toHaveAccessibleName('Theme: Dark. Switch to Auto');

    // back to auto: follows the (light) system again, and keeps following it.
    await toggle.click();
    await expect(html(page)).not.toHaveClass(/\bdark\b/);
    expect(await storageValue(page, 'themeMode')).toBe('auto');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(html(page)).toHaveClass(/\bdark\b/);
  });

  test('the stored theme is applied by index.html before any app code runs (no flash)', async ({ page }) => {
    await seedStorage(page, { themeMode: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    // Block every script file: only the inline bootstrap in index.html can set the class.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/');
    await expect(html(page)).toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');
  });
});
