/**
 * Accounts in the browser (docs/accounts.md): an invite accepted in a fresh browser, a member made
 * by an admin and what their explorer shows, sessions ended from another device, app passwords for
 * WebDAV, and a member disabled while their page is open.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { MEMBER_PASSWORD, expect, loginAsAdminWithForm, test, uniqueName } from '../support/fixtures.ts';
import { BASE_URL } from '../support/env.ts';
import { localMount, type TestMount } from '../support/explorer.ts';

const PASSWORD = MEMBER_PASSWORD;
/** A second device, told apart from the first by its browser in the sessions list. */
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Modules a member may open, and those only an admin may. */
const MEMBER_MODULES = [
  'Text management',
  'File management',
  'Bundles & folder links',
  'API keys',
  'Upload requests',
  'My account',
];
const ADMIN_ONLY = [
  'Dashboard',
  'Storage configuration',
  'Mount management',
  'Folder rules',
  'Notifications',
  'Settings',
  'People',
];

/** A fresh browser context signed in as `username` through the login form, on /admin. */
async function memberPage(browser: Browser, username: string, options: { userAgent?: string } = {}) {
  const context = await browser.newContext({ baseURL: BASE_URL, serviceWorkers: 'block', ...options });
  const page = await context.newPage();
  await page.goto('/admin');
  await loginAsAdminWithForm(page, username, PASSWORD);
  await expect(page.getByTestId('signed-in-user')).toHaveText(username);
  return page;
}

function nav(page: Page) {
  return page.getByRole('navigation', { name: /^(Admin sections|管理功能)$/ });
}

async function propfind(request: APIRequestContext, username: string, password: string) {
  const response = await request.fetch(`${BASE_URL}/dav/`, {
    method: 'PROPFIND',
    headers: {
      Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
      Depth: '1',
    },
  });
  return response.status();
}

test('an invite accepted in a fresh browser signs the new member in, in Chinese, with only their modules', async ({
  page,
  browser,
  seedAdmin,
}) => {
  await seedAdmin();
  const email = `${uniqueName('ann')}@example.com`;
  await page.goto('/admin/people');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite someone' });
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await dialog.getByTestId('invite-submit').click();
  const link = (await page.getByTestId('invite-url').textContent()) ?? '';
  expect(link).toMatch(/\/invite\/[^/]+$/);
  await expect(page.getByTestId('invite-row').filter({ hasText: email })).toContainText('Open');

  const invitee = await browser.newContext({ baseURL: BASE_URL, serviceWorkers: 'block' });
  await invitee.addInitScript(() => localStorage.setItem('language', 'zh-CN'));
  const guest = await invitee.newPage();
  await guest.goto(new URL(link).pathname);
  await expect(guest.getByRole('heading', { name: '加入 Cubby' })).toBeVisible();
  await expect(guest.getByText(`${email} 受邀成为成员`)).toBeVisible();
  const username = uniqueName('invited');
  await guest.getByRole('textbox', { name: '用户名' }).fill(username);
  await guest.getByRole('textbox', { name: '密码', exact: true }).fill(PASSWORD);
  await guest.getByRole('textbox', { name: '再次输入密码' }).fill('not-the-same');
  await guest.getByRole('button', { name: '创建我的账户' }).click();
  await expect(guest.getByText('两次输入的密码不一致。')).toBeVisible();
  await guest.getByRole('textbox', { name: '再次输入密码' }).fill(PASSWORD);
  await guest.getByRole('button', { name: '创建我的账户' }).click();

  await expect(guest).toHaveURL(/\/admin/);
  await expect(guest.getByTestId('signed-in-user')).toHaveText(username);
  await expect(guest.getByText('成员账户')).toBeVisible();
  await expect(nav(guest).getByRole('link', { name: '我的账户' })).toBeVisible();
  for (const name of ['仪表盘', '系统设置', '用户']) {
    await expect(nav(guest).getByRole('link', { name, exact: true })).toHaveCount(0);
  }
  // A reload keeps them a member (the stored role), still without the admin's modules.
  await guest.reload();
  await expect(guest.getByTestId('signed-in-user')).toHaveText(username);
  await expect(nav(guest).getByRole('link', { name: '我的账户' })).toBeVisible();
  await expect(nav(guest).getByRole('link')).toHaveCount(MEMBER_MODULES.length + 1);

  // The link made one account: opened again, it is used.
  await guest.goto(new URL(link).pathname);
  await expect(guest.getByTestId('invite-unavailable')).toHaveText(
    '此邀请链接已被使用、撤销或已过期。请索取新的链接。',
  );
  await page.reload();
  await expect(page.getByTestId('invite-row').filter({ hasText: email })).toContainText(username);
  await invitee.close();
});

test.describe('a member made by an admin', () => {
  let mount: TestMount;
  test.beforeAll(async ({ request }, testInfo) => {
    void testInfo;
    const login = await request.post(`${BASE_URL}/api/admin/login`, {
      data: { username: 'admin', password: 'e2e-admin-password-1' },
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    mount = await localMount(request, token);
    await mount.writeBehind('shared/readme.txt', 'for everyone');
    await mount.writeBehind('secret/plans.txt', 'admins only');
  });
  test.afterAll(async ({ request }) => {
    await mount.cleanup(request);
  });

  test('sees in the explorer only their home folder and the extra path', async ({
    page,
    browser,
    seedAdmin,
  }) => {
    await seedAdmin();
    await page.goto('/admin/people');
    await page.getByRole('button', { name: 'Add person' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a person' });
    const username = uniqueName('bob');
    await dialog.getByRole('textbox', { name: 'Username' }).fill(username);
    await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await dialog.getByRole('textbox', { name: 'Home folder' }).fill(`${mount.path}/people/${username}`);
    await dialog.getByRole('button', { name: 'Add a path' }).click();
    await dialog.getByRole('textbox', { name: 'Path 1' }).fill(`${mount.path}/shared`);
    await dialog.getByTestId('person-submit').click();
    await expect(dialog.getByText('The password needs at least 8 characters.')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await dialog.getByTestId('person-submit').click();
    await expect(dialog).toBeHidden();
    const row = page.getByTestId('person-row').filter({ hasText: username });
    await expect(row).toContainText(`${mount.path}/shared (Read only)`);
    await expect(row).toContainText('Member');

    const member = await memberPage(browser, username);
    await expect(nav(member).getByRole('link', { name: 'People' })).toHaveCount(0);
    await member.goto(`/mount-explorer${mount.path}`);
    await expect(member.getByTestId('entry-name')).toHaveText(['people', 'shared']);
    await member.goto(`/mount-explorer${mount.path}/shared`);
    await expect(member.getByTestId('entry-name')).toHaveText(['readme.txt']);
    await member.goto('/mount-explorer/');
    await expect(member.getByTestId('entry-name')).toHaveText([mount.path.slice(1)]);

    // Their API key starts at their home folder, and the picker walks only their tree.
    await member.goto('/admin/key-management');
    await member.getByRole('button', { name: 'New API key' }).click();
    const keyDialog = member.getByRole('dialog', { name: 'New API key' });
    await expect(keyDialog.getByRole('textbox', { name: 'Base path' })).toHaveValue(
      `${mount.path}/people/${username}`,
    );
    await keyDialog.getByRole('checkbox', { name: 'Mounts' }).check();
    await keyDialog.getByRole('button', { name: 'Browse the folders for the base path' }).click();
    const picker = member.getByRole('dialog', { name: 'Choose the base path' });
    await expect(picker.getByTestId('picker-empty')).toBeVisible();
    await picker.getByTestId('picker-up').click();
    await picker.getByTestId('picker-up').click();
    await expect(picker.getByTestId('picker-folder')).toHaveText(['people', 'shared']);
    await picker.getByRole('button', { name: 'Cancel' }).click();

    // An app password's folder is picked the same way, among the folders they reach.
    await member.goto('/admin/account');
    await member.getByRole('button', { name: 'Browse the folders for this app password' }).click();
    const folderPicker = member.getByRole('dialog', { name: 'Choose the folder' });
    await expect(folderPicker.getByTestId('picker-folder')).toHaveText([mount.path.slice(1)]);
    await folderPicker.getByTestId('picker-folder').click();
    await folderPicker.getByRole('button', { name: 'Open shared' }).click();
    await folderPicker.getByTestId('picker-choose').click();
    await expect(member.getByRole('textbox', { name: 'Folder' })).toHaveValue(`${mount.path}/shared`);
    await member.context().close();
  });
});

test('a member ends a session on another device, which is signed out on its next request', async ({
  browser,
  api,
}) => {
  const { username } = await api.createMember();
  const laptop = await memberPage(browser, username);
  const other = await memberPage(browser, username, { userAgent: FIREFOX_ON_WINDOWS });

  await laptop.getByRole('link', { name: 'My account' }).click();
  const sessions = laptop.getByTestId('session-row');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
  await laptop.getByRole('button', { name: 'End the session on Firefox · Windows' }).click();
  await expect(sessions).toHaveCount(1);

  await nav(other).getByRole('link', { name: 'API keys' }).click();
  await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // The device that ended it is still signed in.
  await laptop.reload();
  await expect(laptop.getByTestId('signed-in-user')).toHaveText(username);
  await laptop.context().close();
  await other.context().close();
});

test('an app password is shown once, opens WebDAV, and stops at once when revoked', async ({
  browser,
  api,
  request,
}) => {
  const { username } = await api.createMember();
  const page = await memberPage(browser, username);
  await page.goto('/admin/account');
  const name = `laptop ${randomUUID().slice(0, 4)}`;
  await page.getByRole('button', { name: 'Create app password' }).click();
  await expect(page.getByText('Enter a name.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create app password' }).click();

  const secret = (await page.getByTestId('app-password-value').textContent()) ?? '';
  expect(secret.length).toBeGreaterThan(16);
  await expect(page.getByTestId('recipe-app-webdav')).toContainText(`${BASE_URL}/dav/`);
  await expect(page.getByTestId('recipe-app-rclone')).toContainText(`user=${username}`);
  expect(await propfind(request, username, secret)).toBe(207);
  expect(await propfind(request, username, `${secret}x`)).toBe(401);

  // Shown once: after "Done" and a reload, only its first characters are left.
  await page.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  const row = page.getByTestId('app-password-row').filter({ hasText: name });
  await expect(row).toContainText(`${secret.slice(0, 4)}…`);
  await expect(page.getByText(secret)).toHaveCount(0);

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page.getByRole('alertdialog').getByTestId('confirm').click();
  await expect(row).toHaveCount(0);
  expect(await propfind(request, username, secret)).toBe(401);
  await page.context().close();
});

test('a member disabled by an admin is signed out at their next action', async ({
  page,
  browser,
  api,
  seedAdmin,
}) => {
  const { username } = await api.createMember();
  const member = await memberPage(browser, username);
  for (const name of MEMBER_MODULES) await expect(nav(member).getByRole('link', { name })).toBeVisible();
  for (const name of ADMIN_ONLY)
    await expect(nav(member).getByRole('link', { name, exact: true })).toHaveCount(0);

  await seedAdmin();
  await page.goto('/admin/people');
  await page.getByRole('button', { name: `Edit ${username}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${username}` });
  await dialog.getByRole('combobox', { name: 'Status' }).selectOption('disabled');
  await dialog.getByTestId('person-submit').click();
  await expect(page.getByTestId('person-row').filter({ hasText: username })).toContainText('Disabled');

  await nav(member).getByRole('link', { name: 'My account' }).click();
  await expect(member.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await member.context().close();
});

test('a member made an admin gets the admin modules at the next check of their session', async ({
  browser,
  api,
}) => {
  const { id, username } = await api.createMember();
  const page = await memberPage(browser, username);
  await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  const response = await api.request.put(`${BASE_URL}/api/admin/users/${id}`, {
    headers: { Authorization: `Bearer ${await api.adminToken()}` },
    data: { role: 'admin' },
  });
  expect(response.status(), await response.text()).toBe(200);

  await page.reload();
  await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('Administrator account')).toBeVisible();
  await page.context().close();
});
