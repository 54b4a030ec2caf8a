/**
 * Form errors for screen-reader and keyboard users (issue 16, WCAG 3.3.1): on a submit that finds
 * errors, every invalid control is marked `aria-invalid` and described by its message
 * (`aria-describedby`), and the focus moves to the first invalid control, so its message is read.
 * The submit button is clicked, so the focus starts there and has to be moved.
 */
import type { Locator, Page } from '@playwright/test';
import { formErrorProblems } from '../support/a11y.ts';
import { expect, test, uniqueName } from '../support/fixtures.ts';

/** The focus is on `field`, it is invalid and described by `message`, and nothing else is amiss. */
async function expectFirstError(page: Page, field: Locator, message: string | RegExp) {
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(message);
  expect(await formErrorProblems(page)).toEqual([]);
}

test('login, both modes: the first empty field takes the focus and is described by its message', async ({
  page,
}) => {
  await page.goto('/admin');
  const submit = page.getByRole('button', { name: 'Sign in' });
  await submit.click();
  await expectFirstError(page, page.getByRole('textbox', { name: 'Username' }), 'Enter your username.');
  await page.getByRole('textbox', { name: 'Username' }).fill('admin');
  await submit.click();
  await expectFirstError(page, page.getByLabel('Password'), 'Enter your password.');

  await page.getByRole('tab', { name: 'API key' }).click();
  await submit.click();
  await expectFirstError(page, page.getByRole('textbox', { name: 'API key' }), 'Enter an API key.');
});

test('create a text share: an empty editor takes the focus; a taken suffix is marked on its field', async ({
  page,
  seedAdmin,
  api,
}) => {
  await seedAdmin();
  await page.goto('/');
  await page.getByRole('button', { name: 'Create share' }).click();
  await expectFirstError(page, page.locator('.cm-content'), 'Write some content first.');

  const taken = uniqueName('taken');
  await api.createPaste({ content: 'first', slug: taken });
  await page.locator('.cm-content').fill('hello');
  const slug = page.getByRole('textbox', { name: 'Custom link suffix' });
  await slug.fill(taken);
  await page.getByRole('button', { name: 'Create share' }).click();
  await expectFirstError(page, slug, /already taken/);
});

test('the paste password prompt: an empty password takes the focus back from the button', async ({
  page,
  api,
}) => {
  const slug = uniqueName('locked');
  await api.createPaste({ content: 'secret', slug, password: 'pw' });
  await page.goto(`/paste/${slug}`);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expectFirstError(page, page.getByLabel('Password'), 'Enter the password.');
});

test('admin dialogs and settings: new key, new mount, account', async ({ page, seedAdmin }) => {
  await seedAdmin();
  await page.goto('/admin/key-management');
  await page.getByTestId('create-key').click();
  const keyDialog = page.getByTestId('create-key-dialog');
  await keyDialog.locator('select[name=expiry]').selectOption('custom');
  await keyDialog.locator('input[name=customDays]').fill('0');
  await keyDialog.locator('button[type=submit]').click();
  await expectFirstError(page, keyDialog.locator('input[name=name]'), /.+/);
  await expect(keyDialog.locator('[aria-invalid=true]')).toHaveCount(2);

  await page.goto('/admin/mount-management');
  await page.getByTestId('create-mount').click();
  const mountDialog = page.getByTestId('mount-dialog');
  await mountDialog.locator('input[name=mountPath]').fill('/etc/photos');
  await mountDialog.getByTestId('save-mount').click();
  await expectFirstError(page, mountDialog.locator('[aria-invalid=true]').first(), /.+/);

  await page.goto('/admin/settings');
  const account = page.locator('form').filter({ has: page.locator('input[name=currentPassword]') });
  await account.locator('button[type=submit]').click();
  await expectFirstError(page, account.locator('input[name=currentPassword]'), /.+/);
});

test('upload settings: a bad link suffix takes the focus when the upload is started', async ({
  page,
  seedAdmin,
}) => {
  await seedAdmin();
  await page.goto('/upload');
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') });
  const slug = page.locator('input[name=slug]');
  await slug.fill('not valid!');
  await page.getByTestId('start-upload').click();
  await expectFirstError(page, slug, /.+/);
});
