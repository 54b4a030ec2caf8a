/**
 * Gist-like pastes and revoking (docs/api.md, "Multi-file pastes", "Revoking a share"): in Chinese,
 * the admin writes a paste of two named files with a title; a visitor who is not signed in reads
 * both files (the Python one highlighted); the admin revokes it from text management after
 * confirming, and the visitor's link then says it was revoked.
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
