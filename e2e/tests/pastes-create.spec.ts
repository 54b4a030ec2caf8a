/**
 * Creating text shares on Home (docs/product.md §2 Home, §4 draft, §5 validation, §6 who may create).
 */
import type { Page } from '@playwright/test';
import { chooseLanguage } from '../support/a11y.ts';
import { expect, seedApiKey, test, uniqueName } from '../support/fixtures.ts';
import { BASE_URL } from '../support/env.ts';

const editor = (page: Page) => page.getByTestId('paste-editor').locator('.cm-content');

async function typeContent(page: Page, text: string) {
  await editor(page).click();
  await page.keyboard.insertText(text);
}

test.describe('as the admin', () => {
  test.beforeEach(async ({ seedAdmin }) => {
    await seedAdmin();
  });

  test('creates a Markdown share: toolbar, preview, link box with copy, raw link, QR and copy-as', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const slug = uniqueName('md');
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Create a text share' })).toBeVisible();
    await typeContent(page, '# Notes\n\nsee ');
    await page.getByTestId('toolbar-bold').click();
    await page.keyboard.insertText('this');
    await page.keyboard.press('End');
    await page.keyboard.insertText('\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n- [x] done\n');
    await expect(page.getByTestId('text-stats')).toContainText('words');

    await page.getByTestId('mode-split').click();
    const preview = page.getByTestId('paste-preview');
    await expect(preview.getByRole('heading', { name: 'Notes' })).toBeVisible();
    await expect(preview.locator('strong')).toHaveText('this');
    await expect(preview.locator('table td').first()).toHaveText('1');
    await expect(preview.locator('input[type=checkbox]')).toBeChecked();

    await page.getByRole('textbox', { name: 'Remark' }).fill('team notes');
    await page.getByRole('textbox', { name: 'Custom link suffix' }).fill(slug);
    await page.getByRole('combobox', { name: 'Expires' }).selectOption({ label: '7 days' });
    await page.getByRole('button', { name: 'Create share' }).click();

    const result = page.getByTestId('share-result');
    await expect(result).toBeVisible();
    await expect(page.getByTestId('share-link')).toHaveValue(`${BASE_URL}/paste/${slug}`);
    await expect(page.getByTestId('qr-code')).toBeVisible();
    expect(await page.getByTestId('qr-code').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await expect(page.getByTestId('raw-link')).toHaveAttribute('href', `${BASE_URL}/api/raw/${slug}`);

    await page.getByTestId('copy-link').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${BASE_URL}/paste/${slug}`);
    await page.getByTestId('copy-as-markdown').click();
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown).toContain('# Notes');
    expect(markdown).toContain('see **this**');
    await page.getByTestId('copy-as-html').click();
    const html = await page.evaluate(() => navigator.clipboard.readText());
    expect(html).toContain('<strong>this</strong>');
    expect(html).toContain('<table>');
    await page.getByTestId('copy-as-text').click();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(text).toContain('see this');
    expect(text).not.toContain('**');

    const raw = await request.get(`/api/raw/${slug}`);
    expect(await raw.text()).toBe(markdown);

    // The draft was dropped with the share: a reload offers nothing.
    await page.reload();
    await expect(page.getByTestId('paste-editor')).toBeVisible();
    await expect(page.getByTestId('draft-banner')).toHaveCount(0);
  });

  test('Ctrl+B and Ctrl+I make the selection bold and italic, as the toolbar does; the tooltips name them', async ({
    page,
  }) => {
    await page.goto('/');
    await typeContent(page, 'say hi');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Control+b');
    await expect(editor(page)).toHaveText('say **hi**');
    await page.keyboard.press('Control+i');
    await expect(editor(page)).toHaveText('say **_hi_**');
    // Pressed again, the shortcut unwraps what it wrapped, like the button.
    await page.keyboard.press('Control+i');
    await expect(editor(page)).toHaveText('say **hi**');
    // Without a selection, the placeholder goes in selected, to be typed over.
    await page.keyboard.press('End');
    await page.keyboard.insertText(' ');
    await page.keyboard.press('Control+b');
    await page.keyboard.insertText('loud');
    await expect(editor(page)).toHaveText('say **hi** **loud**');
    const bold = page.getByTestId('toolbar-bold');
    await expect(bold).toHaveAttribute('title', 'Bold (Ctrl+B)');
    await expect(bold).toHaveAttribute('aria-keyshortcuts', 'Control+B');
    await chooseLanguage(page, '中文');
    await expect(page.getByTestId('toolbar-italic')).toHaveAttribute('title', '斜体（Ctrl+I）');
  });

  test('shows inline errors in the current language, and the server conflict for a taken suffix', async ({
    page,
    api,
  }) => {
    const taken = uniqueName('taken');
    await api.createPaste({ content: 'first', slug: taken });
    await page.goto('/');
    await page.getByRole('button', { name: 'Create share' }).click();
    await expect(page.getByText('Write some content first.')).toBeVisible();

    await typeContent(page, 'hello');
    await expect(page.getByText('Write some content first.')).toHaveCount(0);
    const slug = page.getByRole('textbox', { name: 'Custom link suffix' });
    await slug.fill('has space');
    await page.getByRole('spinbutton', { name: 'Max views' }).fill('-1');
    await page.getByRole('combobox', { name: 'Expires' }).selectOption({ label: 'Custom date and time' });
    await page.getByLabel('Expiry date and time').fill('2001-01-01T10:00');
    await page.getByRole('button', { name: 'Create share' }).click();
    await expect(page.getByText('Use only letters, digits, hyphens and underscores.')).toBeVisible();
    await expect(page.getByText('Enter a whole number, 0 or more.')).toBeVisible();
    await expect(page.getByText('The expiry must be in the future.')).toBeVisible();
    await expect(slug).toHaveAttribute('aria-invalid', 'true');

    await slug.fill('admin');
    await page.getByRole('button', { name: 'Create share' }).click();
    await expect(page.getByText('This suffix is reserved by the system; choose another.')).toBeVisible();

    await chooseLanguage(page, '中文');
    await expect(page.getByText('该后缀为系统保留，请换一个。')).toBeVisible();
    await chooseLanguage(page, 'English');

    await slug.fill(taken);
    await page.getByRole('spinbutton', { name: 'Max views' }).fill('3');
    await page.getByRole('combobox', { name: 'Expires' }).selectOption({ label: 'Never' });
    await page.getByRole('button', { name: 'Create share' }).click();
    // The conflict is about the suffix: it is shown under that field, which takes the focus.
    await expect(slug).toHaveAttribute('aria-invalid', 'true');
    await expect(slug).toHaveAccessibleDescription(/already taken/);
    await expect(slug).toBeFocused();
    await expect(page.getByTestId('paste-form-error')).toHaveCount(0);
  });

  test('opens a local .md file into the editor, and refuses one over 5 MiB', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('open-file-input').setInputFiles({
      name: 'readme.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# From a file\n\n你好 world'),
    });
    await expect(editor(page)).toContainText('# From a file');
    await expect(page.getByTestId('text-stats')).toHaveText('23 characters · 6 words');
    await page.getByTestId('mode-preview').click();
    await expect(
      page.getByTestId('paste-preview').getByRole('heading', { name: 'From a file' }),
    ).toBeVisible();

    await page.getByTestId('open-file-input').setInputFiles({
      name: 'huge.txt',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 'a'),
    });
    await expect(page.getByTestId('file-error')).toContainText('“huge.txt” is larger than the 5 MB limit');
    await page.getByTestId('mode-edit').click();
    await expect(editor(page)).toContainText('# From a file');
  });

  test('opening a file over typed text asks first; Cancel keeps the text, Replace opens the file', async ({
    page,
  }) => {
    await page.goto('/');
    await typeContent(page, 'my own notes');
    const file = { name: 'readme.md', mimeType: 'text/markdown', buffer: Buffer.from('# From a file') };
    await page.getByTestId('open-file-input').setInputFiles(file);
    const dialog = page.getByRole('alertdialog', { name: 'Replace the text in the editor?' });
    await expect(dialog).toContainText('“readme.md” will take the place of what you have written');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(editor(page)).toHaveText('my own notes');

    await chooseLanguage(page, '中文');
    await page.getByTestId('open-file-input').setInputFiles(file);
    const zhDialog = page.getByRole('alertdialog', { name: '替换编辑器中的文本？' });
    await zhDialog.getByRole('button', { name: '替换' }).click();
    await expect(zhDialog).toHaveCount(0);
    await expect(editor(page)).toHaveText('# From a file');
  });

  test('4.7 MiB pasted without a space (minified JSON) stays in the editor, is counted and shared', async ({
    page,
    request,
  }) => {
    const slug = uniqueName('json');
    // Minified JSON, 4.4 million characters (4.7 MiB, under the 5 MiB limit) without a space.
    const unit = '{"id":1,"price":"12€","note":"Zoë—ok"},';
    const json = unit.repeat(Math.ceil(4_400_000 / unit.length));
    const characters = [...json].length;
    await page.goto('/');
    await editor(page).click();
    await editor(page).evaluate((el, text) => {
      const clipboardData = new DataTransfer();
      clipboardData.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
    }, json);
    await expect(page.getByTestId('text-stats')).toHaveText(`${characters} characters · 1 words`);
    await expect(page.getByRole('heading', { level: 1, name: 'Create a text share' })).toBeVisible();
    // Edited without Markdown highlighting, which would cost about a second per keystroke.
    await expect(editor(page)).not.toHaveAttribute('data-language', 'markdown');
    await page.getByRole('textbox', { name: 'Custom link suffix' }).fill(slug);
    await page.getByRole('button', { name: 'Create share' }).click();
    await expect(page.getByTestId('share-link')).toHaveValue(`${BASE_URL}/paste/${slug}`);
    expect(await (await request.get(`/api/raw/${slug}`)).text()).toBe(json);
  });

  test('text typed just before leaving Home is offered as a draft on return, without waiting for the autosave', async ({
    page,
  }) => {
    await page.goto('/');
    await typeContent(page, 'typed then left');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Upload' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Upload files' })).toBeVisible();
    await nav.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByTestId('draft-banner').getByRole('button', { name: 'Restore draft' }).click();
    await expect(editor(page)).toHaveText('typed then left');
  });

  test('restores the auto-saved draft after a reload', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    await typeContent(page, 'draft that must survive');
    await page.clock.fastForward(31_000);
    // Give IndexedDB its write.
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              const open = indexedDB.open('cubby-offline');
              open.onsuccess = () => {
                const get = open.result.transaction('settings').objectStore('settings').get('markdown_draft');
                get.onsuccess = () => resolve(Boolean(get.result));
                get.onerror = () => resolve(false);
              };
              open.onerror = () => resolve(false);
            }),
        ),
      )
      .toBe(true);
    await page.reload();
    const banner = page.getByTestId('draft-banner');
    await expect(banner).toBeVisible();
    await expect(editor(page)).not.toContainText('draft that must survive');
    await banner.getByRole('button', { name: 'Restore draft' }).click();
    await expect(editor(page)).toContainText('draft that must survive');
    await expect(banner).toHaveCount(0);
  });
});

test('a key with the text permission creates a plain-text share, shown monospaced', async ({ page, api }) => {
  const key = await api.createKey({ text: true });
  await seedApiKey(page, key, { text: true, file: false, mount: false });
  await page.goto('/');
  await expect(page.getByTestId('create-notice')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Format' }).selectOption('text');
  await expect(page.getByTestId('toolbar-bold')).toHaveCount(0);
  await typeContent(page, '# not a heading\n  indented   spaces');
  await page.getByRole('button', { name: 'Create share' }).click();
  const link = await page.getByTestId('share-link').inputValue();
  await page.goto(link);
  const content = page.getByTestId('paste-content');
  await expect(content).toHaveText('# not a heading\n  indented   spaces');
  expect(await content.evaluate((el) => el.tagName)).toBe('PRE');
  await expect(page.getByRole('heading', { name: 'not a heading' })).toHaveCount(0);
});

test('visitors and keys without the text permission see a sign-in notice and cannot create', async ({
  page,
  api,
  browser,
}) => {
  await page.goto('/');
  const notice = page.getByTestId('create-notice');
  await expect(notice).toContainText('needs an admin login or an API key');
  await notice.getByRole('link').click();
  await expect(page).toHaveURL('/admin');
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Create share' })).toBeDisabled();

  const key = await api.createKey({ file: true });
  const context = await browser.newContext();
  const keyPage = await context.newPage();
  await seedApiKey(keyPage, key, { text: false, file: true, mount: false });
  await keyPage.goto('/');
  await expect(keyPage.getByTestId('create-notice')).toContainText('no text permission');
  await expect(keyPage.getByRole('button', { name: 'Create share' })).toBeDisabled();
  await context.close();
});
