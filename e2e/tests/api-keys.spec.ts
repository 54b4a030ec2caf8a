/**
 * API key management (docs/product.md §2 key-management module, §3 API key, §5 validation).
 */
import type { Page } from '@playwright/test';
import { expect, loginWithKeyForm, test, uniqueName } from '../support/fixtures.ts';

function row(page: Page, name: string) {
  return page.locator(`[data-testid=api-key-row][data-key-name="${name}"]`);
}

async function openKeys(page: Page) {
  await page.goto('/admin/key-management');
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
}

test.describe('key management', () => {
  test.beforeEach(async ({ seedAdmin }) => {
    await seedAdmin();
  });

  test('creates a key, shows it once with a copy button, and the new key can sign in', async ({
    page,
    context,
    browser,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = uniqueName('created');
    await openKeys(page);
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('checkbox', { name: 'Text' }).check();
    await dialog.getByRole('checkbox', { name: 'Mounts' }).check();
    await dialog.getByRole('textbox', { name: 'Base path' }).fill('/projects/alpha/');
    await dialog.getByRole('combobox', { name: 'Expires' }).selectOption({ label: '7 days' });
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const created = page.getByRole('dialog', { name: 'API key created' });
    await expect(created.getByTestId('key-once-notice')).toContainText('you will not see it again');
    const secret = await created.getByTestId('created-key').inputValue();
    expect(secret.length).toBeGreaterThanOrEqual(16);
    await created.getByRole('button', { name: 'Copy key' }).click();
    await expect(created.getByText('The key was copied to the clipboard.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // Clicking outside does not lose the key by accident; the button does close it.
    await page.mouse.click(5, 5);
    await expect(created).toBeVisible();
    await created.getByRole('button', { name: 'I have copied the key' }).click();
    await expect(created).toBeHidden();

    // The list shows the new key masked, never in full, also after a reload.
    const item = row(page, name);
    await expect(item).toBeVisible();
    await expect(item.getByText('Text', { exact: true })).toBeVisible();
    await expect(item.getByText('Mounts', { exact: true })).toBeVisible();
    await expect(item.getByText('/projects/alpha', { exact: true })).toBeVisible();
    await expect(item.getByText('Never used')).toBeVisible();
    await expect(page.locator('body')).not.toContainText(secret);
    await page.reload();
    await expect(row(page, name)).toBeVisible();
    await expect(page.locator('body')).not.toContainText(secret);
    const masked = await row(page, name).getByTestId('key-masked').textContent();
    expect(masked).not.toBe(secret);
    expect(secret.startsWith((masked ?? '').replace(/\.+$/, ''))).toBe(true);

    // The new key signs in, in a separate browser session.
    const other = await browser.newContext();
    const keyPage = await other.newPage();
    await keyPage.goto('/admin');
    await loginWithKeyForm(keyPage, secret);
    await expect(keyPage.getByRole('heading', { name: 'Text management' })).toBeVisible();
    await expect(keyPage.getByTestId('signed-in-user')).toHaveText(name);
    await other.close();
  });

  test('a custom key is accepted only when valid, and is the key that is created', async ({ page }) => {
    const name = uniqueName('custom');
    const customKey = `custom_Key-${Date.now()}-abcdef`;
    await openKeys(page);
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('checkbox', { name: 'Choose the key myself' }).check();
    const keyField = dialog.getByRole('textbox', { name: 'Custom key' });

    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('Enter the custom key or uncheck the option.')).toBeVisible();

    await keyField.fill('short');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('The key must be at least 16 characters.')).toBeVisible();

    await keyField.fill('has spaces and !! signs');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('Use only letters, digits, underscores and hyphens.')).toBeVisible();
    await expect(keyField).toHaveAttribute('aria-invalid', 'true');

    await keyField.fill(customKey);
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByTestId('created-key')).toHaveValue(customKey);
  });

  test('validates name and custom expiry days before calling the server', async ({ page }) => {
    let creates = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/admin/api-keys')) creates++;
    });
    await openKeys(page);
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('combobox', { name: 'Expires' }).selectOption({ label: 'Custom number of days' });
    const days = dialog.getByRole('spinbutton', { name: 'Days until expiry' });

    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('Enter a name.')).toBeVisible();
    await expect(dialog.getByText('Enter a whole number of days from 1 to 36500.')).toBeVisible();

    for (const bad of ['0', '-3', '2.5', '40000']) {
      await days.fill(bad);
      await dialog.getByRole('button', { name: 'Create key' }).click();
      await expect(dialog.getByText('Enter a whole number of days from 1 to 36500.')).toBeVisible();
    }
    expect(creates).toBe(0);

    const name = uniqueName('days');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await days.fill('10');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'I have copied the key' }).click();
    expect(creates).toBe(1);
    const expected = await page.evaluate(() => {
      const date = new Date(Date.now() + 10 * 86_400_000);
      return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(date);
    });
    await expect(row(page, name).locator('time').first()).toContainText(expected);
  });

  test('a duplicate name is refused with the server message', async ({ page, api }) => {
    const existing = await api.createKey();
    await openKeys(page);
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(existing.name);
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByTestId('key-form-error')).toBeVisible();
    await expect(dialog.getByTestId('key-form-error')).not.toHaveText('');
    await expect(dialog).toBeVisible();
  });

  test('edits name, permissions, base path and expiry', async ({ page, api }) => {
    const key = await api.createKey({
      text: true,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const renamed = uniqueName('renamed');
    await openKeys(page);
    await row(page, key.name)
      .getByRole('button', { name: `Edit key ${key.name}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Edit API key' });
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue(key.name);
    await expect(dialog.getByRole('checkbox', { name: 'Text' })).toBeChecked();

    await dialog.getByRole('textbox', { name: 'Name' }).fill(renamed);
    await dialog.getByRole('checkbox', { name: 'Text' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Files' }).check();
    await dialog.getByRole('textbox', { name: 'Base path' }).fill('/shared');
    await dialog.getByRole('combobox', { name: 'Expires' }).selectOption({ label: 'Never' });
    await dialog.getByRole('button', { name: 'Save' }).click();

    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('toast')).toContainText(`Saved the key “${renamed}”.`);
    const item = row(page, renamed);
    await expect(item.getByText('Files', { exact: true })).toBeVisible();
    await expect(item.getByText('Text', { exact: true })).toHaveCount(0);
    await expect(item.getByText('/shared', { exact: true })).toBeVisible();
    await expect(item.getByText('Never', { exact: true })).toBeVisible();
    await expect(row(page, key.name)).toHaveCount(0);

    const stored = (await api.listKeys()).find((entry) => entry.id === key.id);
    expect(stored).toMatchObject({
      name: renamed,
      text_permission: false,
      file_permission: true,
      basic_path: '/shared',
      expires_at: '9999-12-31T23:59:59.000Z',
    });
  });

  test('deletes a key only after confirmation', async ({ page, api }) => {
    const key = await api.createKey();
    await openKeys(page);
    const deleteButton = row(page, key.name).getByRole('button', { name: `Delete key ${key.name}` });

    await deleteButton.click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete API key?' });
    await expect(confirm).toContainText(key.name);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(row(page, key.name)).toBeVisible();

    await deleteButton.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete key' }).click();
    await expect(row(page, key.name)).toHaveCount(0);
    await expect(page.getByTestId('toast')).toContainText(`Deleted the key “${key.name}”.`);
    expect((await api.listKeys()).some((entry) => entry.id === key.id)).toBe(false);
  });
});
