/**
 * Login, logout and session expiry (docs/product.md §2 login screen, §3 auth state, §4 auth, §5, §8).
 */
import {
  expect,
  loginAsAdminWithForm,
  loginWithKeyForm,
  readAuthEvents,
  recordAuthEvents,
  seedStorage,
  storageValue,
  test,
} from '../support/fixtures.ts';
import { ADMIN_USERNAME } from '../support/env.ts';

test.describe('admin account login', () => {
  test('signs in with the right password and opens the dashboard', async ({ page }) => {
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page).toHaveTitle('Admin panel - Cubby');

    await loginAsAdminWithForm(page);

    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page).toHaveTitle('Dashboard - Admin panel - Cubby');
    await expect(page.getByTestId('signed-in-user')).toHaveText(ADMIN_USERNAME);
    expect(await storageValue(page, 'admin_token')).toBeTruthy();
    expect(await storageValue(page, 'api_key')).toBeNull();
  });

  test('the account name stays after a reload, whether the browser kept it or the server says it', async ({
    page,
  }) => {
    await page.goto('/admin');
    await loginAsAdminWithForm(page);
    const user = page.getByTestId('signed-in-user');
    await expect(user).toHaveText(ADMIN_USERNAME);

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(user).toHaveText(ADMIN_USERNAME);

    // A browser that kept only the token (signed in before names were kept) learns it from the check.
    await page.evaluate(() => localStorage.removeItem('admin_username'));
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(user).toHaveText(ADMIN_USERNAME);
    expect(await storageValue(page, 'admin_username')).toBe(ADMIN_USERNAME);
  });

  test('a wrong password shows the server message and stays signed out', async ({ page }) => {
    await page.goto('/admin');
    await loginAsAdminWithForm(page, ADMIN_USERNAME, 'not-the-password');

    await expect(page.getByTestId('login-error')).toHaveText(/wrong username or password/i);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await storageValue(page, 'admin_token')).toBeNull();
  });

  test('empty fields are reported next to the fields without calling the server', async ({ page }) => {
    let loginCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/admin/login')) loginCalls++;
    });
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Enter your username.')).toBeVisible();
    await expect(page.getByText('Enter your password.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Username' })).toHaveAttribute('aria-invalid', 'true');
    expect(loginCalls).toBe(0);
  });
});

test.describe('API key login', () => {
  test('a valid key signs in and sees only the modules its permissions allow', async ({ page, api }) => {
    const key = await api.createKey({ text: true, file: true, basicPath: '/docs' });
    await page.goto('/admin');
    await loginWithKeyForm(page, key.key);

    const nav = page.getByRole('navigation', { name: 'Admin sections' });
    await expect(nav.getByRole('link', { name: 'Text management' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'File management' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'API keys' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Mount Explorer' })).toHaveCount(0);
    // /admin opens the first module the key may use.
    await expect(page.getByRole('heading', { name: 'Text management' })).toBeVisible();
    await expect(page.getByTestId('signed-in-user')).toHaveText(key.name);

    expect(await storageValue(page, 'api_key')).toBe(key.key);
    expect(JSON.parse((await storageValue(page, 'api_key_permissions')) ?? 'null')).toEqual({
      text: true,
      file: true,
      mount: false,
    });
    expect(JSON.parse((await storageValue(page, 'api_key_info')) ?? 'null')).toMatchObject({
      id: key.id,
      name: key.name,
      basic_path: '/docs',
    });
    expect(await storageValue(page, 'admin_token')).toBeNull();
  });

  test('an unknown key is refused with "API key verification failed"', async ({ page }) => {
    await recordAuthEvents(page);
    await page.goto('/admin');
    await loginWithKeyForm(page, 'definitely-not-a-valid-key-123456');

    await expect(page.getByTestId('login-error')).toHaveText('API key verification failed');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await storageValue(page, 'api_key')).toBeNull();
    const events = await readAuthEvents(page);
    expect(
      events.some((event) => event.type === 'auth-state-changed' && event.detail.type === 'logout'),
    ).toBe(true);
  });

  test('the Chinese interface reports a refused key in Chinese', async ({ page }) => {
    await seedStorage(page, { language: 'zh-CN' });
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'API 密钥' }).click();
    await page
      .getByRole('textbox', { name: 'API 密钥', exact: true })
      .fill('definitely-not-a-valid-key-123456');
    await page.getByRole('button', { name: '登录' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('API密钥验证失败');
  });
});

test.describe('logout and expiry', () => {
  test('logout clears the session, emits the events and revokes the token on the server', async ({
    page,
    api,
  }) => {
    await recordAuthEvents(page);
    await page.goto('/admin');
    await loginAsAdminWithForm(page);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    const token = await storageValue(page, 'admin_token');
    expect(token).toBeTruthy();

    await page.getByRole('button', { name: 'Log out' }).click();

    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByTestId('toast')).toContainText('You have been logged out.');
    expect(await storageValue(page, 'admin_token')).toBeNull();
    await expect.poll(() => api.adminTokenStatus(token!)).toBe(401);
    const events = await readAuthEvents(page);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['auth-state-changed', 'admin-token-expired']),
    );
    expect(
      events.find((event) => event.type === 'auth-state-changed' && event.detail.type === 'logout'),
    ).toBeTruthy();
  });

  test('a token revoked on the server logs the UI out at start with the session-expired message', async ({
    page,
    api,
    seedAdmin,
  }) => {
    const token = await seedAdmin();
    await recordAuthEvents(page);
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

    // Revoked while no page of the app runs (a page still open could meet the revoked token first,
    // in a request of its own, and sign out before the start this test is about).
    await page.goto('/manifest.webmanifest');
    await api.revoke(token);
    await page.goto('/admin/dashboard');

    await expect(page.getByTestId('login-notice')).toHaveText(
      'Your session has expired. Please sign in again.',
    );
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await storageValue(page, 'admin_token')).toBeNull();
    const events = await readAuthEvents(page);
    expect(events.map((event) => event.type)).toContain('admin-token-expired');
  });

  test('admin navigation revalidates after five minutes and a revoked token logs out', async ({
    page,
    api,
    seedAdmin,
  }) => {
    await page.clock.install();
    // The modules' own data is answered here, so only the revalidation can notice the revocation.
    const answer = (data: unknown) => ({ json: { code: 200, message: 'ok', data, success: true } });
    await page.route('**/api/admin/mounts', (route) => route.fulfill(answer([])));
    await page.route('**/api/admin/cache/stats', (route) =>
      route.fulfill(
        answer({
          cache: {
            directory: {
              hits: 0,
              misses: 0,
              expired: 0,
              invalidations: 0,
              pruned: 0,
              cacheSize: 0,
              hitRate: 0,
            },
          },
        }),
      ),
    );
    await page.route('**/api/admin/dashboard/stats', (route) =>
      route.fulfill(
        answer({
          totalPastes: 0,
          totalFiles: 0,
          totalApiKeys: 0,
          totalS3Configs: 0,
          totalMounts: 0,
          activePastes: 0,
          expiredPastes: 0,
          activeFiles: 0,
          expiredFiles: 0,
          totalStorageUsed: 0,
          s3Buckets: [],
          lastWeekDays: [],
          lastWeekPastes: [],
          lastWeekFiles: [],
          version: 'test',
        }),
      ),
    );
    const token = await seedAdmin();
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await api.revoke(token);

    // Within five minutes of the last check, moving between modules does not ask the server.
    const nav = page.getByRole('navigation', { name: 'Admin sections' });
    await nav.getByRole('link', { name: 'Mount management' }).click();
    await expect(page.getByRole('heading', { name: 'Mount management' })).toBeVisible();

    await page.clock.fastForward('05:01');
    await nav.getByRole('link', { name: 'Dashboard' }).click();

    await expect(page.getByTestId('login-notice')).toHaveText(
      'Your session has expired. Please sign in again.',
    );
    await expect(page.getByTestId('toast')).toContainText('Your session has expired.');
    expect(await storageValue(page, 'admin_token')).toBeNull();
  });

  test('an admin call answered 401 logs out at once (key list after revocation)', async ({
    page,
    api,
    seedAdmin,
  }) => {
    const token = await seedAdmin();
    // The dashboard's own calls must be answered before the revocation, or one of them logs out first.
    const loaded = Promise.all(
      ['/api/admin/dashboard/stats', '/api/admin/cache/stats', '/api/admin/mounts'].map((path) =>
        page.waitForResponse((response) => new URL(response.url()).pathname === path),
      ),
    );
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await loaded;
    await api.revoke(token);

    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'API keys' })
      .click();

    await expect(page.getByTestId('login-notice')).toHaveText(
      'Your session has expired. Please sign in again.',
    );
  });

  test('a key deleted on the server logs the key user out with the key-invalid message', async ({
    page,
    api,
  }) => {
    const key = await api.createKey({ text: true });
    await recordAuthEvents(page);
    await page.goto('/admin');
    await loginWithKeyForm(page, key.key);
    await expect(page.getByRole('heading', { name: 'Text management' })).toBeVisible();

    await api.deleteKey(key.id);
    await page.reload();

    await expect(page.getByTestId('login-notice')).toHaveText('The API key is invalid or has expired.');
    expect(await storageValue(page, 'api_key')).toBeNull();
    expect(await storageValue(page, 'api_key_info')).toBeNull();
    const events = await readAuthEvents(page);
    expect(events.map((event) => event.type)).toContain('api-key-invalid');
  });

  test('a stored admin token wins over a stored API key at start', async ({ page, api }) => {
    const token = await api.login();
    const key = await api.createKey({ text: true });
    await seedStorage(page, {
      admin_token: token,
      api_key: key.key,
      api_key_permissions: JSON.stringify({ text: true, file: false, mount: false }),
      api_key_info: JSON.stringify({ id: key.id, name: key.name, basic_path: '/' }),
    });
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByText('Administrator account')).toBeVisible();
  });
});
