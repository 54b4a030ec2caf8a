/**
 * The audit log screen (docs/security.md "Audit log"): the admin signs in through the form, makes an
 * API key, and finds both in the log; filters by action; exports the filtered log as CSV (a real
 * download, read back); in English and Chinese.
 */
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { chooseLanguage } from '../support/a11y.ts';
import { expect, loginAsAdminWithForm, test, uniqueName } from '../support/fixtures.ts';

async function makeKeyThroughTheForm(page: Page, name: string) {
  await page.goto('/admin/key-management');
  await page.getByRole('button', { name: 'New API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('checkbox', { name: 'Text' }).check();
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const created = page.getByRole('dialog', { name: 'API key created' });
  await created.getByRole('button', { name: 'I have copied the key' }).click();
  await expect(created).toBeHidden();
}

test('the admin finds their sign-in and new key in the audit log, filters it and exports it as CSV', async ({
  page,
  api,
}) => {
  await page.goto('/admin');
  await loginAsAdminWithForm(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const name = uniqueName('audited');
  await makeKeyThroughTheForm(page, name);
  const keys = await api.listKeys();
  const keyId = String(keys.find((key) => key.name === name)!.id);

  await page
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Audit log' })
    .click();
  await expect(page).toHaveURL('/admin/audit-log');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const rows = page.getByTestId('audit-row');
  // Newest first: the key made just now, with the admin as its author and its id as the target.
  const keyRow = rows.filter({ hasText: keyId });
  await expect(keyRow).toHaveCount(1);
  await expect(keyRow).toHaveAttribute('data-action', 'apikey.create');
  await expect(keyRow).toContainText('API key created');
  await expect(keyRow).toContainText('admin');
  await expect(keyRow).toContainText('Success');
  await expect(rows.filter({ hasText: 'Sign-in' }).first()).toBeVisible();

  // Only key creations once filtered by that action.
  const filters = page.getByTestId('audit-filters');
  await filters.getByRole('combobox', { name: 'Action' }).selectOption({ label: 'API key created' });
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect
    .poll(() => rows.evaluateAll((all) => [...new Set(all.map((row) => row.getAttribute('data-action')))]))
    .toEqual(['apikey.create']);
  await expect(keyRow).toBeVisible();

  // The export carries the same filter and streams to a file.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = fs
    .readFileSync((await download.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('at,actor_kind,actor_id,actor_name,ip,action,target,outcome,status,details');
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).every((line) => line.includes(',apikey.create,'))).toBe(true);
  expect(
    lines.some((line) => line.includes(`,admin,`) && line.endsWith(`,apikey.create,${keyId},success,201,`)),
  ).toBe(true);

  // The same screen in Chinese.
  await chooseLanguage(page, '中文');
  await expect(page.getByRole('heading', { level: 1, name: '审计日志' })).toBeVisible();
  await expect(keyRow).toContainText('创建 API 密钥');
  await expect(keyRow).toContainText('成功');
  await expect(page.getByRole('button', { name: '导出 CSV' })).toBeVisible();
  await filters.getByRole('combobox', { name: '操作' }).selectOption({ label: '登录' });
  await filters.getByRole('button', { name: '应用筛选' }).click();
  await expect(rows.filter({ hasText: '登录' }).first()).toBeVisible();
  await expect(keyRow).toHaveCount(0);
});

test('the retention setting is saved and shown again', async ({ page, seedAdmin }) => {
  await seedAdmin();
  await page.goto('/admin/settings');
  const form = page.getByTestId('audit-settings');
  const days = form.getByRole('textbox', { name: 'Keep entries for (days)' });
  await expect(days).toHaveValue(/^\d+$/);
  await days.fill('-3');
  await form.getByRole('button', { name: 'Save audit log setting' }).click();
  await expect(form.getByText('Enter a whole number of days from 0 to 36500.')).toBeVisible();
  await days.fill('45');
  await form.getByRole('button', { name: 'Save audit log setting' }).click();
  await expect(page.getByText('Audit log setting saved.')).toBeVisible();
  await page.reload();
  await expect(
    page.getByTestId('audit-settings').getByRole('textbox', { name: 'Keep entries for (days)' }),
  ).toHaveValue('45');
  await days.fill('90');
  await form.getByRole('button', { name: 'Save audit log setting' }).click();
  await expect(page.getByText('Audit log setting saved.')).toBeVisible();
});
