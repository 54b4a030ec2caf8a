/**
 * Two-factor sign-in in the browser (docs/accounts.md "Two-factor sign-in"): a member sets it up in
 * My account (secret read from the page, codes made here as an authenticator app would), signs in
 * with password and code or with a recovery code (used once), and a wrong code is said and may be
 * typed again. Then the admin requires it of everyone (Settings): a member without it lands on the
 * set-up page, in Chinese, and reaches the panel once it is on.
 *
 * Codes follow the server's clock (other tests move it): each 30 s step is taken once, and turning
 * it on takes the current step, so the sign-in after it uses the next step's code (inside the ±1
 * window) — no waiting. Runs in its own project: while everyone must use two factors, no other test
 * could sign in.
 */
import type { Browser, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import {
  MEMBER_PASSWORD,
  expect,
  loginAsAdminWithForm,
  seedStorage,
  test,
  type Api,
} from '../support/fixtures.ts';
import { BASE_URL } from '../support/env.ts';
import { codeFor, turnOnTwoFactor } from '../support/two-factor.ts';

test.describe.configure({ mode: 'serial' });

/** Another six digits than `code`. */
const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

/** A fresh browser on /admin (optionally in another language), signed out. */
async function freshPage(browser: Browser, storage: Record<string, string> = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, serviceWorkers: 'block' });
  const page = await context.newPage();
  await seedStorage(page, storage);
  await page.goto('/admin');
  return page;
}

/** Password step of the login form; answers the second step's form. */
async function passwordStep(page: Page, username: string, password = MEMBER_PASSWORD) {
  await loginAsAdminWithForm(page, username, password);
  const step = page.getByTestId('two-factor-step');
  await expect(step.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  // These people have an authenticator app and no passkey: no passkey is offered.
  await expect(step.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0);
  return step;
}

/** Both steps of the login form, the second with a recovery code. */
async function signInWithRecoveryCode(page: Page, username: string, code: string) {
  const step = await passwordStep(page, username);
  await step.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await step.getByRole('textbox', { name: 'Recovery code' }).fill(code);
  await step.getByRole('button', { name: 'Verify' }).click();
}

/** Set-up in the open two-factor section: reads the secret off the page, turns it on; answers secret and codes. */
async function enrol(page: Page, api: Api, labels: { setUp: string; turnOn: string }) {
  await page.getByRole('button', { name: labels.setUp, exact: true }).click();
  const setup = page.getByTestId('two-factor-setup');
  await expect(setup.getByTestId('qr-code')).toBeVisible();
  const secret = ((await setup.getByTestId('two-factor-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await setup.locator('input[name=otp]').fill(await codeFor(api, secret));
  await setup.getByRole('button', { name: labels.turnOn }).click();
  const codes = page.getByTestId('recovery-code');
  await expect(codes).toHaveCount(10);
  return { secret, codes: (await codes.allTextContents()).map((code) => code.trim()) };
}

/** An admin with two-factor sign-in on (through the API), who may change settings whatever they require. */
async function secondAdmin(api: Api) {
  const { username } = await api.createMember({ role: 'admin' });
  const token = await api.login(username, MEMBER_PASSWORD);
  return {
    username,
    secret: await turnOnTwoFactor(api, token),
    headers: { Authorization: `Bearer ${token}` },
  };
}

let member: { username: string; secret: string; codes: string[] };

test('a member sets it up in My account: QR code, key as text, a first code, ten recovery codes once', async ({
  browser,
  api,
}) => {
  const { username } = await api.createMember();
  const page = await freshPage(browser);
  await loginAsAdminWithForm(page, username, MEMBER_PASSWORD);
  await expect(page.getByTestId('signed-in-user')).toHaveText(username);
  await page.goto('/admin/account');
  const section = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Two-factor sign-in', exact: true }) });
  await expect(section.getByTestId('two-factor-status')).toContainText('Off');

  // A wrong first code is refused with the server's message, and the set-up stays open.
  await section.getByRole('button', { name: 'Set up', exact: true }).click();
  const setup = page.getByTestId('two-factor-setup');
  await expect(
    setup.getByRole('img', { name: 'QR code to add this account to an authenticator app' }),
  ).toBeVisible();
  const secret = ((await setup.getByTestId('two-factor-secret').textContent()) ?? '').trim();
  await setup.locator('input[name=otp]').fill(wrongCode(await codeFor(api, secret)));
  await setup.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByTestId('two-factor-error')).toHaveText(
    "That code is not right. Check the device's clock and enter the code shown now",
  );
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Set up again (a new secret), this time with the right code.
  const enrolled = await enrol(page, api, { setUp: 'Set up', turnOn: 'Turn on' });
  expect(enrolled.secret).not.toBe(secret);
  expect(new Set(enrolled.codes).size).toBe(10);
  await expect(page.getByText('Store these recovery codes now: they are not shown again.')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download .txt' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('cubby-recovery-codes.txt');
  const saved = await readFile(await download.path(), 'utf8');
  expect(saved.trim().split('\n')).toEqual(enrolled.codes);

  await page.getByRole('button', { name: 'I have stored them' }).click();
  await expect(page.getByTestId('recovery-code')).toHaveCount(0);
  await expect(section.getByTestId('two-factor-status')).toContainText('On');
  await expect(section.getByTestId('two-factor-status')).toContainText('10 recovery codes left');
  member = { username, ...enrolled };
  await page.context().close();
});

test('signing in takes the password, then a code; a wrong code is said and may be typed again', async ({
  browser,
  api,
}) => {
  const page = await freshPage(browser);
  const step = await passwordStep(page, member.username);
  const field = step.getByRole('textbox', { name: 'Code from the app' });
  await expect(field).toHaveAttribute('inputmode', 'numeric');
  await expect(field).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(field).toBeFocused();

  // Turning it on took the current step: the next step's code signs in (inside the ±1 window).
  const next = await codeFor(api, member.secret, 1);
  await field.fill(wrongCode(next));
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('That code or recovery code is not right');
  await field.fill(next);
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('signed-in-user')).toHaveText(member.username);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.context().close();
});

test('a recovery code signs in once; "Back" returns to the password step', async ({ browser }) => {
  const page = await freshPage(browser);
  await signInWithRecoveryCode(page, member.username, member.codes[0]!);
  await expect(page.getByTestId('signed-in-user')).toHaveText(member.username);
  await page.getByRole('button', { name: 'Log out' }).click();

  await signInWithRecoveryCode(page, member.username, member.codes[0]!);
  await expect(page.getByTestId('login-error')).toHaveText('That code or recovery code is not right');

  await page.getByTestId('two-factor-step').getByRole('button', { name: 'Back' }).click();
  await expect(page.getByTestId('two-factor-step')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Username' })).toHaveValue(member.username);
  await page.context().close();
});

test('new recovery codes and turning it off each take a code; a wrong one is said and signs nobody out', async ({
  browser,
}) => {
  const page = await freshPage(browser);
  await signInWithRecoveryCode(page, member.username, member.codes[1]!);
  await expect(page.getByTestId('signed-in-user')).toHaveText(member.username);
  await page.goto('/admin/account');
  const status = page.getByTestId('two-factor-status');
  await expect(status).toContainText('8 recovery codes left');

  // A spent code: the server's message, and still signed in.
  await page.getByRole('button', { name: 'New recovery codes' }).click();
  const form = page.getByTestId('two-factor-form');
  await form.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await form.getByRole('textbox', { name: 'Recovery code' }).fill(member.codes[0]!);
  await form.getByRole('button', { name: 'New recovery codes' }).click();
  await expect(page.getByTestId('two-factor-error')).toHaveText('That code or recovery code is not right');
  await expect(page.getByTestId('signed-in-user')).toHaveText(member.username);

  await form.getByRole('textbox', { name: 'Recovery code' }).fill(member.codes[2]!);
  await form.getByRole('button', { name: 'New recovery codes' }).click();
  await expect(page.getByTestId('recovery-code')).toHaveCount(10);
  const renewed = (await page.getByTestId('recovery-code').allTextContents()).map((code) => code.trim());
  expect(renewed.filter((code) => member.codes.includes(code))).toEqual([]);
  await page.getByRole('button', { name: 'I have stored them' }).click();
  await expect(status).toContainText('10 recovery codes left');

  await page.getByRole('button', { name: 'Turn off' }).click();
  await form.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await form.getByRole('textbox', { name: 'Recovery code' }).fill(renewed[0]!);
  await form.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByTestId('toast')).toContainText('Two-factor sign-in is off.');
  await expect(status).toContainText('Off');

  // The password alone signs in again.
  await page.getByRole('button', { name: 'Log out' }).click();
  await loginAsAdminWithForm(page, member.username, MEMBER_PASSWORD);
  await expect(page.getByTestId('signed-in-user')).toHaveText(member.username);
  await page.context().close();
});

test('when the admin requires it of everyone, a member without it sets it up first (in Chinese), then reaches the panel', async ({
  browser,
  api,
  request,
}) => {
  const una = await api.createMember();
  const admin = await secondAdmin(api);

  // The admin (with two factors) requires them of everyone in Settings.
  const adminPage = await freshPage(browser);
  const step = await passwordStep(adminPage, admin.username);
  await step.getByRole('textbox', { name: 'Code from the app' }).fill(await codeFor(api, admin.secret, 1));
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(adminPage.getByTestId('signed-in-user')).toHaveText(admin.username);
  await adminPage.goto('/admin/settings');
  const policy = adminPage.getByTestId('two-factor-settings');
  await policy.getByRole('combobox', { name: 'Require two-factor sign-in for' }).selectOption('everyone');
  await policy.getByRole('button', { name: 'Save two-factor setting' }).click();
  await expect(adminPage.getByTestId('toast')).toContainText('Two-factor requirement saved.');
  try {
    const settings = await request.get(`${BASE_URL}/api/admin/system-settings`, { headers: admin.headers });
    const rows = ((await settings.json()) as { data: { key: string; value: string }[] }).data;
    expect(rows.find((row) => row.key === 'require_two_factor')?.value).toBe('everyone');

    // Una signs in with her password only and lands on the set-up, which a reload keeps.
    const page = await freshPage(browser, { language: 'zh-CN' });
    await loginAsAdminWithFormZh(page, una.username);
    await expect(page.getByRole('heading', { level: 1, name: '设置两步验证' })).toBeVisible();
    await expect(page.getByText('管理员要求你的账户使用两步验证。')).toBeVisible();
    await expect(page.getByRole('navigation', { name: '管理功能' })).toHaveCount(0);
    await expect(page.getByTestId('signed-in-user')).toHaveText(una.username);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: '设置两步验证' })).toBeVisible();
    // The explorer (which the server would refuse) sends her back to the set-up.
    await page.goto('/mount-explorer');
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: '设置两步验证' })).toBeVisible();
    await expect(page.getByText('管理员要求', { exact: true })).toBeVisible();

    await enrol(page, api, { setUp: '设置', turnOn: '开启' });
    await page.getByRole('button', { name: '我已保存' }).click();
    await expect(page.getByRole('navigation', { name: '管理功能' })).toBeVisible();
    await expect(page.getByTestId('two-factor-enrol')).toHaveCount(0);
    await page.goto('/admin/account');
    await expect(page.getByTestId('two-factor-status')).toContainText('已开启');
    await page.context().close();
  } finally {
    const off = await request.put(`${BASE_URL}/api/admin/system-settings`, {
      headers: admin.headers,
      data: { require_two_factor: 'off' },
    });
    expect(off.status(), await off.text()).toBe(200);
    await adminPage.context().close();
  }
});

/** The login form's password step in Chinese. */
async function loginAsAdminWithFormZh(page: Page, username: string) {
  await page.getByRole('tab', { name: '账户', exact: true }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByRole('textbox', { name: '密码', exact: true }).fill(MEMBER_PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
}

test('an admin who requires it without a second factor of their own is warned, then taken to the set-up', async ({
  page,
  api,
  request,
  seedAdmin,
}) => {
  const keeper = await secondAdmin(api);
  await seedAdmin();
  await page.goto('/admin/settings');
  const policy = page.getByTestId('two-factor-settings');
  await expect(policy.getByTestId('two-factor-settings-covers-you')).toHaveCount(0);
  await policy.getByRole('combobox', { name: 'Require two-factor sign-in for' }).selectOption('admins');
  await expect(policy.getByTestId('two-factor-settings-covers-you')).toHaveText(
    'You have no two-factor sign-in yourself: after saving, you set it up before anything else.',
  );
  try {
    await policy.getByRole('button', { name: 'Save two-factor setting' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Set up two-factor sign-in' })).toBeVisible();
    await expect(page.getByText('Required by the admin', { exact: true })).toBeVisible();
  } finally {
    const off = await request.put(`${BASE_URL}/api/admin/system-settings`, {
      headers: keeper.headers,
      data: { require_two_factor: 'off' },
    });
    expect(off.status(), await off.text()).toBe(200);
  }
});
