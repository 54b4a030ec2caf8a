/**
 * The main flows with the keyboard alone (issue 16): Tab / Shift+Tab to reach a control, Enter and
 * Space to use it, Escape to leave. No mouse, no `click()`, no `fill()` on a located element:
 * focus only moves the way a keyboard user moves it, so a control that Tab never reaches, or a dialog
 * that does not take and give back focus, fails here.
 */
import { tabTo } from '../support/a11y.ts';
import { pngOf } from '../support/files.ts';
import { expect, test, uniqueName } from '../support/fixtures.ts';

test('create a text share: skip link, editor (Escape then Tab leaves it), fields, submit', async ({
  page,
  seedAdmin,
}) => {
  await seedAdmin();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The first Tab stop is the skip link, and it lands in the main content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  const editor = page.getByTestId('paste-editor').locator('.cm-content');
  await tabTo(page, editor);
  await page.keyboard.type('typed with the keyboard alone');
  // Tab indents inside the editor; Escape then Tab moves on, as CodeMirror documents.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(editor).not.toBeFocused();
  const suffix = page.getByRole('textbox', { name: 'Custom link suffix' });
  await tabTo(page, suffix);
  const slug = uniqueName('kbd');
  await page.keyboard.type(slug);
  await tabTo(page, page.getByRole('button', { name: 'Create share' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('share-link')).toHaveValue(new RegExp(`/paste/${slug}$`));
});

test('upload a file: the file picker opens from the keyboard and the upload starts', async ({
  page,
  seedAdmin,
}) => {
  await seedAdmin();
  await page.goto('/upload');
  const choose = page.getByTestId('choose-files');
  await tabTo(page, choose);
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  const name = `${uniqueName('kbd')}.png`;
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: pngOf(2, 2) });
  const item = page.getByTestId('upload-item').filter({ hasText: name });
  await expect(item).toBeVisible();
  const start = page.getByTestId('start-upload');
  if ((await item.getAttribute('data-status')) !== 'success' && (await start.isEnabled())) {
    await tabTo(page, start);
    await page.keyboard.press('Enter');
  }
  await expect(item).toHaveAttribute('data-status', 'success');
});

test('admin keys: the dialog takes focus, Space ticks a permission, Escape closes and focus comes back', async ({
  page,
  seedAdmin,
  api,
}) => {
  await seedAdmin();
  await page.goto('/admin/key-management');
  const open = page.getByRole('button', { name: 'New API key' });
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'New API key' });
  await expect(form).toBeVisible();
  await expect
    .poll(() => form.evaluate((el) => el.contains(document.activeElement)), {
      message: 'focus is in the dialog',
    })
    .toBe(true);
  // Escape closes an untouched dialog and gives the focus back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(open).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(form).toBeVisible();
  const name = uniqueName('kbd-key');
  await tabTo(page, form.getByRole('textbox', { name: 'Name' }));
  await page.keyboard.type(name);
  const files = form.getByRole('checkbox', { name: 'Files' });
  await tabTo(page, files);
  await page.keyboard.press('Space');
  await expect(files).toBeChecked();
  // Focus stays inside the dialog however far Tab goes.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    expect(await form.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await tabTo(page, form.getByRole('button', { name: 'Create key' }));
  await page.keyboard.press('Enter');
  const created = page.getByRole('dialog', { name: 'API key created' });
  await expect(created).toBeVisible();
  await tabTo(page, created.getByRole('button', { name: 'I have copied the key' }));
  await page.keyboard.press('Enter');
  await expect(created).toBeHidden();
  const keys = await api.listKeys();
  const made = keys.find((k) => k.name === name) as { id: string; file_permission: boolean } | undefined;
  expect(made?.file_permission).toBe(true);
  await api.deleteKey(made!.id);
});
