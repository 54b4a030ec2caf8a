/**
 * Every screen of the app (and the dialogs and error states worth seeing), reachable in any UI
 * language including the test-only key mode: screens are found by route, role and test id, never by
 * visible text. Used by the screenshot run and by the "every text is a translation key" test.
 */
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { uniqueName, type Api } from './fixtures.ts';

export const SOURCE_URL = 'https://github.com/cubby-app/cubby';

export type Principal = 'visitor' | 'admin' | 'textKey' | 'mountKey';

export interface Screen {
  name: string;
  as: Principal;
  path: string;
  /** Interaction after the page is ready (open a dialog, submit an empty form…). */
  action?: (page: Page) => Promise<void>;
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).first();

async function openCreateDialog(page: Page) {
  await page.getByTestId('create-key').click();
  await expect(page.getByTestId('create-key-dialog')).toBeVisible();
}

export const SCREENS: Screen[] = [
  { name: 'home', as: 'visitor', path: '/' },
  { name: 'upload', as: 'visitor', path: '/upload' },
  { name: 'paste-view', as: 'visitor', path: '/paste/demo-slug' },
  { name: 'file-view', as: 'visitor', path: '/file/demo-file' },
  { name: 'mount-explorer', as: 'visitor', path: '/mount-explorer/docs/reports?preview=summary.pdf' },
  { name: 'login-admin', as: 'visitor', path: '/admin' },
  {
    name: 'login-apikey-errors',
    as: 'visitor',
    path: '/admin',
    action: async (page) => {
      await page.getByRole('tab').nth(1).click();
      await page.locator('form button[type=submit]').click();
      await expect(page.locator('[aria-invalid=true]')).toHaveCount(1);
    },
  },
  {
    name: 'mobile-menu-open',
    as: 'visitor',
    path: '/upload',
    action: async (page) => {
      const toggle = page.getByTestId('mobile-menu-toggle');
      if (await toggle.isVisible()) {
        await toggle.click();
        await expect(page.getByTestId('mobile-menu')).toBeVisible();
      }
    },
  },
  { name: 'admin-dashboard', as: 'admin', path: '/admin/dashboard' },
  { name: 'admin-text-management', as: 'admin', path: '/admin/text-management' },
  { name: 'admin-file-management', as: 'admin', path: '/admin/file-management' },
  { name: 'admin-storage-config', as: 'admin', path: '/admin/storage-config' },
  { name: 'admin-mount-management', as: 'admin', path: '/admin/mount-management' },
  { name: 'admin-key-management', as: 'admin', path: '/admin/key-management' },
  { name: 'admin-settings', as: 'admin', path: '/admin/settings' },
  { name: 'admin-not-found', as: 'admin', path: '/admin/no-such-module' },
  {
    name: 'settings-errors',
    as: 'admin',
    path: '/admin/settings',
    action: async (page) => {
      await page.locator('form button[type=submit]').first().click();
      await expect(page.locator('[aria-invalid=true]').first()).toBeVisible();
    },
  },
  {
    name: 'key-create-dialog',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await openCreateDialog(page);
      const dialog = page.getByTestId('create-key-dialog');
      await dialog.locator('select[name=expiry]').selectOption('custom');
      await dialog.locator('input[type=checkbox]').last().check();
      await expect(dialog.locator('input[name=customKey]')).toBeVisible();
    },
  },
  {
    name: 'key-create-errors',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await openCreateDialog(page);
      const dialog = page.getByTestId('create-key-dialog');
      await dialog.locator('select[name=expiry]').selectOption('custom');
      await dialog.locator('input[name=customDays]').fill('0');
      await dialog.locator('input[type=checkbox]').last().check();
      await dialog.locator('input[name=customKey]').fill('short key!');
      await dialog.locator('button[type=submit]').click();
      await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(3);
    },
  },
  {
    name: 'key-created-once',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await openCreateDialog(page);
      const dialog = page.getByTestId('create-key-dialog');
      await dialog.locator('input[name=name]').fill(uniqueName('shot'));
      await dialog.locator('button[type=submit]').click();
      await expect(dialog.getByTestId('created-key')).toBeVisible();
    },
  },
  {
    name: 'key-edit-dialog',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await page.getByTestId('edit-key').first().click();
      await expect(page.getByTestId('edit-key-dialog')).toBeVisible();
    },
  },
  {
    name: 'key-delete-dialog',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await page.getByTestId('delete-key').first().click();
      await expect(page.getByTestId('delete-key-dialog')).toBeVisible();
    },
  },
  {
    name: 'env-switcher',
    as: 'admin',
    path: '/?showEnvSwitcher',
    action: async (page) => {
      await page.getByTestId('env-switcher-button').click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  { name: 'key-user-text-management', as: 'textKey', path: '/admin' },
  { name: 'key-user-mount-overview', as: 'mountKey', path: '/admin' },
  { name: 'key-user-explorer', as: 'mountKey', path: '/mount-explorer/team/reports' },
];

export interface ScreenSession {
  pageFor(principal: Principal): Promise<Page>;
  close(): Promise<void>;
}

/**
 * One browser context per principal, each seeded with its credentials and the given storage
 * (language, theme), created lazily.
 */
export function screenSession(
  browser: Browser,
  api: Api,
  options: { width: number; storage: Record<string, string>; colorScheme?: 'light' | 'dark' },
): ScreenSession {
  const contexts = new Map<Principal, Promise<{ context: BrowserContext; page: Page }>>();

  const credentials = async (principal: Principal): Promise<Record<string, string>> => {
    if (principal === 'visitor') return {};
    if (principal === 'admin') return { admin_token: await api.login() };
    const permissions = { text: principal === 'textKey', file: false, mount: principal === 'mountKey' };
    const basicPath = principal === 'mountKey' ? '/team' : '/';
    const key = await api.createKey({ name: uniqueName(principal), ...permissions, basicPath });
    return {
      api_key: key.key,
      api_key_permissions: JSON.stringify(permissions),
      api_key_info: JSON.stringify({ id: key.id, name: key.name, basic_path: basicPath }),
    };
  };

  const open = async (principal: Principal) => {
    const context = await browser.newContext({
      viewport: { width: options.width, height: options.width < 768 ? 800 : 900 },
      colorScheme: options.colorScheme ?? 'light',
      locale: 'en-US',
    });
    const storage = { ...options.storage, ...(await credentials(principal)) };
    await context.addInitScript((entries) => {
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, storage);
    return { context, page: await context.newPage() };
  };

  return {
    async pageFor(principal) {
      if (!contexts.has(principal)) contexts.set(principal, open(principal));
      return (await contexts.get(principal)!).page;
    },
    async close() {
      for (const entry of contexts.values()) await (await entry).context.close();
    },
  };
}

/** Opens a screen and waits until it has settled (heading shown, no loading indicator). */
export async function showScreen(page: Page, screen: Screen): Promise<void> {
  await page.goto(screen.path);
  await expect(h1(page)).toBeVisible();
  await expect(page.locator('main [role=status] svg.animate-spin')).toHaveCount(0);
  if (screen.action) await screen.action(page);
}
