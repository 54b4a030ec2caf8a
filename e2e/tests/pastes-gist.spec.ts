/**
 * Gist-like pastes and revoking (docs/api.md, "Multi-file pastes", "Revoking a share"): in Chinese,
 * the admin writes a paste of two named files with a title; a visitor who is not signed in reads
 * both files (the Python one highlighted); the admin revokes it from text management after
 * confirming, and the visitor's link then says it was revoked. The edit dialog renames a file of
 * a two-file paste, adds a third (a repeated name refused with the create form's message) and
 * changes the title; the paste page then shows three files.
 */
import type { Page } from '@playwright/test';
import { chooseLanguage } from '../support/a11y.ts';
import { BASE_URL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';

const visibleEditor = (page: Page) =>
  page.getByTestId('paste-editor').filter({ visible: true }).locator('.cm-content');

test('a two-file paste with a title, read signed out, then revoked', async ({ page, browser, seedAdmin }) => {
  await seedAdmin();
  await page.goto('/');
  await chooseLanguage(page, '中文');

  await page.getByTestId('paste-title').fill('部署说明');
  await visibleEditor(page).click();
  await page.keyboard.insertText('# 步骤\n\n先运行脚本。');
  await page.getByTestId('add-file').click();
  await page.getByTestId('file-name').fill('run.py');
  await page.getByTestId('file-language').selectOption('python');
  await visibleEditor(page).click();
  await page.keyboard.insertText('def main():\n    return 1');
  await page.getByTestId('file-tab').first().click();
  await page.getByTestId('file-name').fill('README.md');
  await expect(page.getByTestId('file-tab')).toHaveText(['README.md', 'run.py']);
  await page.getByRole('button', { name: '创建分享' }).click();

  const link = page.getByTestId('share-link');
  await expect(link).toHaveValue(new RegExp(`^${BASE_URL}/paste/`));
  const url = await link.inputValue();
  const slug = url.slice(url.lastIndexOf('/') + 1);

  // A visitor, not signed in.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { level: 1, name: '部署说明' })).toBeVisible();
  const files = visitor.getByTestId('paste-file');
  await expect(files).toHaveCount(2);
  await expect(files.nth(0).getByRole('heading', { name: 'README.md' })).toBeVisible();
  await expect(files.nth(0).getByRole('heading', { name: '步骤' })).toBeVisible();
  await expect(files.nth(1).getByRole('heading', { name: 'run.py' })).toBeVisible();
  await expect(files.nth(1).locator('code.hljs .hljs-keyword').first()).toHaveText('def');
  await expect(files.nth(1).getByTestId('raw-file')).toHaveAttribute(
    'href',
    `${BASE_URL}/api/raw/${slug}?file=run.py`,
  );

  await page.goto('/admin/text-management');
  const row = page.getByTestId('paste-row').filter({ hasText: slug });
  await row.getByTestId('revoke-paste').first().click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText(`/paste/${slug}`);
  await dialog.getByRole('button', { name: '撤销' }).click();
  await expect(row.getByTestId('paste-status').first()).toHaveText('已撤销');
  await expect(row.getByTestId('revoke-paste')).toHaveCount(0);

  await visitor.reload();
  await expect(visitor.getByTestId('paste-gone')).toBeVisible();
  await expect(visitor.getByTestId('paste-unavailable-reason')).toHaveText(
    'This text share has been revoked',
  );
  await visitor.context().close();
});

test('the edit dialog renames a file of a two-file paste, adds a third and changes the title', async ({
  page,
  api,
  seedAdmin,
}) => {
  const { slug } = await api.createPaste({
    title: 'Before',
    files: [
      { name: 'README.md', language: 'markdown', content: '# Steps' },
      { name: 'run.py', language: 'python', content: 'print(1)' },
    ],
  });
  await seedAdmin();
  await page.goto('/admin/text-management');
  await page.getByTestId('paste-row').filter({ hasText: slug }).getByTestId('edit-paste').first().click();
  const dialog = page.getByTestId('edit-paste-dialog');
  await expect(dialog.getByTestId('file-tab')).toHaveText(['README.md', 'run.py']);
  await dialog.getByLabel('Title').fill('After');
  await dialog.getByTestId('file-tab').nth(1).click();
  await expect(dialog.getByLabel('Content of run.py')).toHaveValue('print(1)');
  await dialog.getByTestId('file-name').fill('main.py');

  await dialog.getByTestId('add-file').click();
  await dialog.getByTestId('file-name').fill('readme.MD');
  await dialog.getByTestId('file-language').selectOption('markdown');
  await dialog.getByLabel('Content of readme.MD').fill('- one');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Each file needs its own name.')).toBeVisible();
  await dialog.getByTestId('file-name').fill('notes.md');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await page.goto(`/paste/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: 'After' })).toBeVisible();
  const files = page.getByTestId('paste-file');
  await expect(files).toHaveCount(3);
  await expect(files.nth(1).getByRole('heading', { name: 'main.py' })).toBeVisible();
  await expect(files.nth(2).getByRole('heading', { name: 'notes.md' })).toBeVisible();
  await expect(files.nth(2).getByRole('listitem')).toHaveText('one');
});
