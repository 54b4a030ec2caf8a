/**
 * The app shell around every screen (docs/product.md §1 languages, §2 routes and route guard):
 * - only the UI language's texts load with the page; the other language loads when it is chosen,
 *   and the page switches only once its texts are there (never showing keys), or stays as it was
 *   when they cannot be loaded;
 * - a screen whose code cannot be loaded shows the error page, and the back button leaves it; a
 *   screen that fails in the browser says so rather than blaming the connection;
 * - admin screens check the login with the server when the last check is older than five minutes,
 *   also when reached with the back button.
 */
import type { Page, Request } from '@playwright/test';
import { chooseLanguage } from '../support/a11y.ts';
import { expect, storageValue, test } from '../support/fixtures.ts';

const ZH_CHUNK = '**/assets/zh-CN-*.js';
// Texts load in parts (`<language>-<part>-<hash>.js`): the core part with the page, sections with screens.
const isLocaleChunk = (request: Request, language: string, part = '\\w+') =>
  new RegExp(`/assets/${language}-${part}-[\\w-]+\\.js$`).test(new URL(request.url()).pathname);

function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

async function expectEnglish(page: Page) {
  await expect(page).toHaveTitle('Online clipboard - Cubby');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }),
  ).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await expect(page.getByTestId('language-switcher')).toHaveAttribute('data-value', 'en-US');
}

test.describe('language texts', () => {
  test('only the UI language loads up front; the other loads on switching, and the page switches once it is there', async ({
    page,
  }) => {
    const requests = recordRequests(page);
    await page.goto('/');
    await expectEnglish(page);
    expect(requests.filter((request) => isLocaleChunk(request, 'en-US', 'core'))).toHaveLength(1);
    expect(requests.filter((request) => isLocaleChunk(request, 'zh-CN'))).toHaveLength(0);

    // Hold the Chinese texts back until the English page has been checked while they load.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let requested!: () => void;
    const wasRequested = new Promise<void>((resolve) => (requested = resolve));
    await page.route(ZH_CHUNK, async (route) => {
      requested();
      await released;
      await route.continue();
    });

    await chooseLanguage(page, '中文');
    await wasRequested;
    await expectEnglish(page);
    await expect(page.getByText('nav.home', { exact: true })).toHaveCount(0);
    // The choice is remembered at once: a reload now would open in Chinese.
    expect(await storageValue(page, 'language')).toBe('zh-CN');

    release();
    await expect(page).toHaveTitle('在线剪贴板 - Cubby');
    await expect(
      page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '首页', exact: true }),
    ).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    expect(await storageValue(page, 'language')).toBe('zh-CN');

    // Back to English: its texts are already there, nothing is fetched again.
    const before = requests.length;
    await chooseLanguage(page, 'English');
    await expectEnglish(page);
    expect(requests.slice(before).filter((request) => isLocaleChunk(request, 'en-US'))).toHaveLength(0);
  });

  test('a language whose texts cannot be loaded is not switched to, and the page says why', async ({
    page,
  }) => {
    await page.route(ZH_CHUNK, (route) => route.abort());
    await page.goto('/');
    await expectEnglish(page);

    await chooseLanguage(page, '中文');

    await expect(page.getByTestId('toast')).toContainText('Network error, check your connection.');
    await expectEnglish(page);
    expect(await storageValue(page, 'language')).toBeNull();
  });

  test('a stored Chinese choice loads only the Chinese texts', async ({ page }) => {
    const requests = recordRequests(page);
    await page.addInitScript(() => localStorage.setItem('language', 'zh-CN'));
    await page.goto('/');
    await expect(page).toHaveTitle('在线剪贴板 - Cubby');
    expect(requests.filter((request) => isLocaleChunk(request, 'zh-CN', 'core'))).toHaveLength(1);
    expect(requests.filter((request) => isLocaleChunk(request, 'en-US'))).toHaveLength(0);
  });
});

test('a screen whose code cannot be loaded shows the error page; the back button leaves it', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Online clipboard - Cubby');
  await page.route('**/assets/upload-page-*.js', (route) => route.abort());

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await expect(page).toHaveTitle('Something went wrong - Cubby');
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');

  await page.goBack();
  await expect(page).toHaveTitle('Online clipboard - Cubby');
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toHaveCount(0);
});

test('a screen that fails in the browser does not blame the connection; the text being written on Home is offered again', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByTestId('paste-editor').locator('.cm-content').click();
  await page.keyboard.insertText('written just before the failure');
  // The Upload screen's code loads but fails as it runs: an error in the page, not in the network.
  await page.route('**/assets/upload-page-*.js', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: 'throw new TypeError("broken screen");' }),
  );
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await expect(page.getByTestId('route-error-local')).toContainText('not on your connection');
  await expect(page.getByText('Check your connection')).toHaveCount(0);
  await page.evaluate(() => localStorage.setItem('language', 'zh-CN'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: '出错了' })).toBeVisible();
  await expect(page.getByTestId('route-error-local')).toContainText('并非网络连接问题');

  await page.getByRole('link', { name: '返回首页' }).click();
  const banner = page.getByTestId('draft-banner');
  await banner.getByRole('button', { name: '恢复草稿' }).click();
  await expect(page.getByTestId('paste-editor')).toContainText('written just before the failure');
});

test('an admin screen reached with the back button checks the login again after five minutes', async ({
  page,
  api,
  seedAdmin,
}) => {
  await page.clock.install();
  const token = await seedAdmin();
  const checks = recordRequests(page);
  const loginChecks = () =>
    checks.filter((request) => new URL(request.url()).pathname === '/api/test/admin-token').length;
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const afterStart = loginChecks();
  expect(afterStart).toBeGreaterThan(0);

  // Within five minutes, leaving the admin area and coming back does not ask the server.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveTitle('Online clipboard - Cubby');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(loginChecks()).toBe(afterStart);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveTitle('Online clipboard - Cubby');
  await api.revoke(token);
  await page.clock.fastForward('05:01');
  await page.goBack();

  await expect(page.getByTestId('login-notice')).toHaveText(
    'Your session has expired. Please sign in again.',
  );
  expect(loginChecks()).toBe(afterStart + 1);
  expect(await storageValue(page, 'admin_token')).toBeNull();
});
