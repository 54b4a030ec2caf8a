/**
 * Passkeys in real Chromium (docs/accounts.md "Passkeys"), with its virtual authenticator (CDP
 * `WebAuthn`: a platform authenticator that holds discoverable credentials and verifies the user):
 * a member adds a passkey in My account and sees their recovery codes once, signs out, signs in
 * with the passkey alone and then with her password and the passkey as the second step, renames it (in Chinese) and removes it; the screens with a passkey are
 * screenshot and checked under axe at both widths in both themes. WebAuthn needs a domain for its RP ID, so the page is
 * opened at `localhost` (the same server, on the loopback address) rather than 127.0.0.1.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect, loginAsAdminWithForm, MEMBER_PASSWORD, test } from '../support/fixtures.ts';
import { PORT, SCREENSHOT_DIR } from '../support/env.ts';

const LOCALHOST = `http://localhost:${PORT}`;
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** A page at localhost with a virtual authenticator: internal, resident keys, user verified. */
async function pageWithAuthenticator(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: LOCALHOST, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return page;
}

/**
 * The screen with a passkey (no other walk has one: they run at 127.0.0.1) at 375 and 1280 px in
 * both colour schemes: a screenshot of each, and axe's WCAG 2.1 A/AA rules in each.
 */
async function lookAt(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() =>
        Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))),
      );
      await page.screenshot({
        path: `${SCREENSHOT_DIR}passkeys/${name}-${width}-${colorScheme}.png`,
        fullPage: true,
      });
      const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    }
  }
}

test('a member adds a passkey, signs in with it alone after signing out, and removes it', async ({
  browser,
  api,
}) => {
  // Eight screenshots with axe runs besides the ceremonies: more than a minute on a loaded machine.
  test.setTimeout(120_000);
  const { username } = await api.createMember();
  const page = await pageWithAuthenticator(browser);
  await page.goto('/admin');
  await loginAsAdminWithForm(page, username, MEMBER_PASSWORD);
  await expect(page.getByTestId('signed-in-user')).toHaveText(username);

  await page.goto('/admin/account');
  await expect(page.getByText('No passkeys')).toBeVisible();
  // A name is asked for before the browser's prompt.
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page.getByText('Enter a name.')).toBeVisible();
  await page.locator('input[name=passkeyName]').fill('Test laptop');
  await page.getByRole('button', { name: 'Add passkey' }).click();
  const row = page.getByTestId('passkey-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Test laptop');
  await expect(row).toContainText('Never');
  // Her first second factor: ten recovery codes, shown this once.
  await expect(page.getByTestId('passkey-recovery-codes').locator('li')).toHaveCount(10);
  await lookAt(page, 'codes-en');
  await page.getByTestId('passkey-recovery-codes').getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('passkey-recovery-codes')).toHaveCount(0);

  // Signed out, the passkey alone signs her in (the password form would now want a second factor).
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByTestId('signed-in-user')).toHaveText(username);

  // Or as the second step after her password: the code step offers the passkey too.
  await page.getByRole('button', { name: 'Log out' }).click();
  await loginAsAdminWithForm(page, username, MEMBER_PASSWORD);
  const step = page.getByTestId('two-factor-step');
  await expect(step).toBeVisible();
  // She has no authenticator app: no code is asked, only the passkey (or a recovery code).
  await expect(step).toContainText('Use your passkey below, or one of the recovery codes you stored.');
  await expect(step.locator('input[name=otp]')).toHaveCount(0);
  await expect(step.getByRole('textbox', { name: 'Recovery code' })).toBeVisible();
  await step.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByTestId('signed-in-user')).toHaveText(username);

  await page.goto('/admin/account');
  await expect(row).not.toContainText('Never');
  // In Chinese too: the list, and the rename dialog.
  await page.evaluate(() => localStorage.setItem('language', 'zh-CN'));
  await page.reload();
  await expect(row).toContainText('仅此设备');
  await lookAt(page, 'list-zh');
  await row.getByRole('button', { name: '重命名 Test laptop' }).click();
  await page.getByRole('dialog').getByRole('textbox').fill('Work laptop');
  await page.getByRole('dialog').getByRole('button', { name: '保存' }).click();
  await expect(row).toContainText('Work laptop');
  await page.evaluate(() => localStorage.setItem('language', 'en-US'));
  await page.reload();
  await row.getByRole('button', { name: 'Remove Work laptop' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('No passkeys')).toBeVisible();

  // Gone from the server: the authenticator still offers it, and the server no longer knows it.
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByTestId('passkey-error')).toHaveText('This passkey was not recognised');
  await page.context().close();
});
