/**
 * Admin account settings (docs/product.md §5 "Settings", §8 change-password 401). Runs in its own project
 * after every other test, because a successful change ends all sessions of the admin.
 */
import type { Page } from '@playwright/test';
import { expect, loginAsAdminWithForm, storageValue, test } from '../support/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/env.ts';

test.describe.configure({ mode: 'serial' });

async function openSettings(page: Page) {
  await page.goto('/admin/settings');
  await expect(page.getByRole('heading', { name: 'Admin account' })).toBeVisible();
  return {
    current: page.getByRole('textbox', { name: 'Current password' }),
    username: page.getByRole('textbox', { name: 'New username' }),
    password: page.getByRole('textbox', { name: 'New password', exact: true }),
    confirm: page.getByRole('textbox', { name: 'Confirm new password' }),
    submit: page.getByRole('button', { name: 'Update account' }),
  };
}

test('the form checks its rules before calling the server', async ({ page, seedAdmin }) => {
  await seedAdmin();
  let calls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/admin/change-password')) calls++;
  });
  const form = await openSettings(page);

  await form.submit.click();
  await expect(page.getByText('Enter your current password.')).toBeVisible();
  await expect(page.getByText('Enter a new username, a new password or both.')).toBeVisible();

  await form.current.fill(ADMIN_PASSWORD);
  await form.password.fill(ADMIN_PASSWORD);
  await form.confirm.fill(ADMIN_PASSWORD);
  await form.submit.click();
  await expect(page.getByText('The new password must differ from the current one.')).toBeVisible();

  await form.password.fill('a-brand-new-password');
  await form.confirm.fill('something-else');
  await form.submit.click();
  await expect(page.getByText('The passwords do not match.')).toBeVisible();
  expect(calls).toBe(0);
});

test('a wrong current password is reported and does not log the admin out', async ({ page, seedAdmin }) => {
  await seedAdmin();
  const form = await openSettings(page);
  await form.current.fill('not-my-password');
  await form.username.fill('someone-else');
  await form.submit.click();

  await expect(page.getByTestId('account-error')).toBeVisible();
  await expect(page.getByTestId('account-error')).not.toHaveText('');
  await expect(page.getByRole('heading', { name: 'Admin account' })).toBeVisible();
  expect(await storageValue(page, 'admin_token')).toBeTruthy();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Admin account' })).toBeVisible();
});

test('changing the password logs out everywhere and the new password works', async ({
  page,
  api,
  seedAdmin,
}) => {
  const token = await seedAdmin();
  const newPassword = 'e2e-changed-password-2';
  const form = await openSettings(page);
  await form.current.fill(ADMIN_PASSWORD);
  await form.password.fill(newPassword);
  await form.confirm.fill(newPassword);
  await form.submit.click();

  await expect(page.getByTestId('login-notice')).toHaveText('Your account was updated. Please log in again.');
  expect(await storageValue(page, 'admin_token')).toBeNull();
  expect(await api.adminTokenStatus(token)).toBe(401);

  await loginAsAdminWithForm(page, ADMIN_USERNAME, newPassword);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

  // Put the original password back, so the server can be reused for another run.
  const restore = await openSettings(page);
  await restore.current.fill(newPassword);
  await restore.password.fill(ADMIN_PASSWORD);
  await restore.confirm.fill(ADMIN_PASSWORD);
  await restore.submit.click();
  await expect(page.getByTestId('login-notice')).toBeVisible();
  await loginAsAdminWithForm(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
});
