/**
 * Folder rules and guests in the browser (docs/architecture.md "Folder rules", docs/accounts.md
 * "Guests"): the admin sets a README, a hide pattern and a password in Admin → Folder rules; a
 * member then sees the README, must enter the password, and never sees the hidden file; a
 * signed-out visitor browses a guest folder read only, in Chinese.
 */
import type { Browser } from '@playwright/test';
import { MEMBER_PASSWORD, expect, loginAsAdminWithForm, test } from '../support/fixtures.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BASE_URL } from '../support/env.ts';
import { localMount } from '../support/explorer.ts';

async function freshPage(browser: Browser, language?: string) {
  const context = await browser.newContext({ baseURL: BASE_URL, serviceWorkers: 'block' });
  const page = await context.newPage();
  if (language) await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
  return page;
}

test('the admin protects a folder with README, hide pattern and password; a member sees the README only after the password, never the hidden file', async ({
  page,
  api,
  browser,
  request,
  seedAdmin,
}) => {
  const token = await seedAdmin();
  const mount = await localMount(request, token);
  try {
    await mount.writeBehind('readme.txt', 'hello');
    await mount.writeBehind('notes.secret', 'hidden');
    const member = await api.createMember({ paths: [{ path: mount.path, access: 'read' }] });

    await page.goto('/admin/folder-rules');
    await expect(page.getByTestId('folder-rules-empty')).toBeVisible();
    await page.getByTestId('create-folder-rule').click();
    const dialog = page.getByTestId('folder-rule-dialog');
    await dialog.getByRole('textbox', { name: 'Folder' }).fill(mount.path);
    await dialog
      .getByRole('textbox', { name: 'README above the listing (Markdown)' })
      .fill('# Welcome, team');
    await dialog.getByRole('textbox', { name: 'Hidden names' }).fill('*.secret');
    await dialog.getByLabel('Password', { exact: true }).fill('open sesame');
    await dialog.getByTestId('save-folder-rule').click();
    await expect(dialog).toBeHidden();
    const row = page.getByTestId('folder-rule-row').filter({ hasText: mount.path });
    await expect(row).toContainText('Password');
    await expect(row).toContainText('1 hidden pattern');

    const visitor = await freshPage(browser);
    await visitor.goto('/admin');
    await loginAsAdminWithForm(visitor, member.username, MEMBER_PASSWORD);
    await expect(visitor.getByTestId('signed-in-user')).toHaveText(member.username);
    await visitor.goto(`/mount-explorer${mount.path}`);
    const form = visitor.getByTestId('file-password-gate');
    await expect(form).toBeVisible();
    await form.getByLabel('Password').fill('wrong words');
    await form.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(visitor.getByTestId('file-password-error')).toBeVisible();
    await form.getByLabel('Password').fill('open sesame');
    await form.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(
      visitor.getByTestId('folder-readme-header').getByRole('heading', { name: 'Welcome, team' }),
    ).toBeVisible();
    await expect(visitor.getByRole('row', { name: /readme\.txt/ })).toBeVisible();
    await expect(visitor.getByText('notes.secret')).toHaveCount(0);
    // Remembered for the visit: a reload asks no password again.
    await visitor.reload();
    await expect(visitor.getByTestId('folder-readme-header')).toBeVisible();
    await expect(visitor.getByTestId('file-password-gate')).toHaveCount(0);
    await visitor.context().close();

    // The admin sees the hidden file.
    await page.goto(`/mount-explorer${mount.path}`);
    await expect(page.getByRole('row', { name: /notes\.secret/ })).toBeVisible();
  } finally {
    const rules = await request.get(`${BASE_URL}/api/fs-meta/list`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    for (const rule of ((await rules.json()) as { data: { id: string; path: string }[] }).data) {
      if (rule.path === mount.path) {
        await request.delete(`${BASE_URL}/api/fs-meta/${rule.id}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
      }
    }
    await mount.cleanup(request);
  }
});

test('a signed-out visitor browses a guest folder read only, with its README, in Chinese', async ({
  api,
  browser,
  request,
}) => {
  const token = await api.adminToken();
  const admin = { Authorization: `Bearer ${token}` };
  const mount = await localMount(request, token);
  const settings = (data: Record<string, unknown>) =>
    request.put(`${BASE_URL}/api/admin/system-settings`, { headers: admin, data });
  let ruleId: string | null = null;
  try {
    await mount.writeBehind('guide.txt', 'welcome');
    await mount.writeBehind('draft.tmp', 'hidden');
    const rule = await request.post(`${BASE_URL}/api/fs-meta/create`, {
      headers: admin,
      data: { path: mount.path, footer_markdown: '## 欢迎访客', hide_patterns: ['*.tmp'] },
    });
    expect(rule.status()).toBe(201);
    ruleId = ((await rule.json()) as { data: { id: string } }).data.id;
    const page = await freshPage(browser, 'zh-CN');
    // Guests off: the notice.
    await page.goto(`/mount-explorer${mount.path}`);
    await expect(page.getByTestId('explorer-notice')).toBeVisible();
    expect((await settings({ guest_enabled: true, guest_paths: mount.path })).status()).toBe(200);
    await page.reload();
    await expect(
      page.getByTestId('folder-readme-footer').getByRole('heading', { name: '欢迎访客' }),
    ).toBeVisible();
    await expect(page.getByRole('row', { name: /guide\.txt/ })).toBeVisible();
    await expect(page.getByText('draft.tmp')).toHaveCount(0);
    // Read only: no upload, no new folder.
    await expect(page.getByTestId('explorer-new-folder')).toHaveCount(0);
    await expect(page.getByTestId('explorer-upload-input')).toHaveCount(0);
    // Allowed to write, the guest uploads into the folder (and still makes no share).
    expect((await settings({ guest_write: true })).status()).toBe(200);
    await page.reload();
    await page.getByTestId('explorer-upload-input').setInputFiles({
      name: 'from-guest.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('a guest was here'),
    });
    await expect(page.getByRole('row', { name: /from-guest\.txt/ })).toBeVisible();
    expect(await readFile(path.join(mount.root!, 'from-guest.txt'), 'utf8')).toBe('a guest was here');
    await page.getByRole('row', { name: /guide\.txt/ }).click({ button: 'right' });
    await expect(page.getByRole('menuitem', { name: '下载' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: '分享…' })).toHaveCount(0);
    await page.context().close();
  } finally {
    await settings({ guest_enabled: false, guest_paths: '', guest_write: false });
    if (ruleId) await request.delete(`${BASE_URL}/api/fs-meta/${ruleId}`, { headers: admin });
    await mount.cleanup(request);
  }
});
