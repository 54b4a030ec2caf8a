/**
 * Office preview (issue 10 item 9): the admin turns it on in Settings → Uploads (it warns that
 * files go to Microsoft's viewer); a Word file's page then offers "Office preview", which asks the
 * server for a link and frames Microsoft's viewer with it. The machine has no internet, so the
 * viewer is answered by `page.route`; the test then fetches the link as the viewer would and sees
 * the bytes and the counted view. Off: no offer. A refusal shows the server's message in the UI
 * language.
 *
 * The setting is server-wide, so this file runs in a project of its own after the main one (see
 * playwright.config.ts), its tests one after another, and leaves the setting off.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, seedStorage, test, uniqueName } from '../support/fixtures.ts';
import { publicFile, putSystemSettings, uploadShare, type FileShareData } from '../support/files.ts';
import { BASE_URL, SCREENSHOT_DIR } from '../support/env.ts';

test.describe.configure({ mode: 'serial' });

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const DOCX_BODY = Buffer.from('PK\u0003\u0004 pretend Word document');
const VIEWER = 'https://view.officeapps.live.com';

const preview = (page: Page) => page.getByTestId('file-preview');

/** Answers the viewer's address in place of Microsoft, recording what the page asked for. */
async function fakeViewer(page: Page): Promise<string[]> {
  const asked: string[] = [];
  await page.route(`${VIEWER}/**`, async (route) => {
    asked.push(route.request().url());
    await route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>viewer</title><h1>Pretend Office viewer</h1>',
    });
  });
  return asked;
}

/** The file URL the viewer frame was given (its `src` parameter), checking the frame's address. */
async function viewerSource(page: Page): Promise<string> {
  const frame = preview(page).getByTestId('office-preview-frame');
  await expect(frame).toBeVisible();
  const src = (await frame.getAttribute('src'))!;
  const viewer = new URL(src);
  expect(viewer.origin).toBe(VIEWER);
  expect(viewer.pathname).toBe('/op/embed.aspx');
  const file = viewer.searchParams.get('src')!;
  // The whole link is one encoded parameter (its own `?` and `=` do not leak into the viewer's query).
  expect(src).toBe(`${VIEWER}/op/embed.aspx?src=${encodeURIComponent(file)}`);
  return file;
}

test.afterEach(async ({ request, api }) => {
  await putSystemSettings(request, api, { office_preview_enabled: false });
});

test('the admin turns it on; a Word file shows in the viewer with a Cubby link that counts a view', async ({
  page,
  request,
  api,
  seedAdmin,
}) => {
  await seedAdmin();
  await page.goto('/admin/settings');
  const form = page.getByTestId('uploads-settings');
  const toggle = form.getByRole('checkbox', { name: 'Offer Office preview on file pages' });
  await expect(toggle).not.toBeChecked();
  await expect(form).toContainText("sent to Microsoft's online viewer");
  await expect(form).toContainText('PUBLIC_URL must be reachable from the internet');
  await toggle.check();
  await form.getByRole('button', { name: 'Save upload settings' }).click();
  await expect(page.getByText('Upload settings saved.')).toBeVisible();
  await form.screenshot({ path: path.join(SCREENSHOT_DIR, 'office-preview', 'settings-toggle.png') });
  await page.reload();
  await expect(
    page.getByTestId('uploads-settings').getByRole('checkbox', { name: /Office preview/ }),
  ).toBeChecked();

  const name = `${uniqueName('minutes')}.docx`;
  const share = await uploadShare(request, api, { name, mimeType: DOCX_TYPE, body: DOCX_BODY, maxViews: 5 });
  const asked = await fakeViewer(page);
  await page.goto(`/file/${share.slug}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(preview(page).getByTestId('download-card')).toContainText("Microsoft's online Office viewer");
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'office-preview', 'file-view-office-offer.png') });
  await preview(page).getByRole('button', { name: 'Office preview' }).click();

  const file = await viewerSource(page);
  expect(file).toMatch(new RegExp(`^${BASE_URL}/api/file-download/${share.slug}\\?token=[\\w.-]+$`));
  // The page's CSP lets the frame load: the (pretend) viewer answered inside it.
  const frame = page.frameLocator('[data-testid=office-preview-frame]');
  await expect(frame.getByRole('heading', { name: 'Pretend Office viewer' })).toBeVisible();
  expect(asked).toEqual([`${VIEWER}/op/embed.aspx?src=${encodeURIComponent(file)}`]);
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, 'office-preview', 'file-view-office-preview.png'),
  });

  // Opening the preview counted nothing; the viewer's fetch of the link does.
  expect(((await publicFile(request, share.slug)) as FileShareData).views).toBe(0);
  const fetched = await request.get(file);
  expect(fetched.status()).toBe(200);
  expect(await fetched.body()).toEqual(DOCX_BODY);
  expect(((await publicFile(request, share.slug)) as FileShareData).views).toBe(1);
});

test('a protected file: after the password, the preview needs nothing more', async ({
  page,
  request,
  api,
}) => {
  await putSystemSettings(request, api, { office_preview_enabled: true });
  const share = await uploadShare(request, api, {
    name: `${uniqueName('budget')}.xlsx`,
    mimeType: 'application/octet-stream',
    body: DOCX_BODY,
    password: 'open sesame',
  });
  await fakeViewer(page);
  await page.goto(`/file/${share.slug}`);
  const gate = page.getByTestId('file-password-gate');
  await gate.getByLabel('Password').fill('open sesame');
  await gate.getByRole('button', { name: 'Open' }).click();
  await preview(page).getByRole('button', { name: 'Office preview' }).click();
  const file = await viewerSource(page);
  expect(file).not.toContain('sesame');
  expect((await request.get(file)).status()).toBe(200);
  // Without the token the bytes stay locked.
  expect((await request.get(file.replace(/\?.*$/, ''))).status()).toBe(401);
});

test('a refusal is shown in the UI language', async ({ page, request, api }) => {
  await putSystemSettings(request, api, { office_preview_enabled: true });
  const share = await uploadShare(request, api, {
    name: `${uniqueName('deck')}.pptx`,
    mimeType: 'application/octet-stream',
    body: DOCX_BODY,
  });
  await seedStorage(page, { language: 'zh-CN' });
  await page.goto(`/file/${share.slug}`);
  const open = preview(page).getByRole('button', { name: 'Office 预览' });
  await expect(open).toBeVisible();
  // The admin turns it off while the page is open.
  await putSystemSettings(request, api, { office_preview_enabled: false });
  await open.click();
  await expect(preview(page).getByTestId('office-preview-error')).toHaveText('Office 预览未启用');
  await expect(preview(page).getByTestId('office-preview-frame')).toHaveCount(0);
});

test('off (the default): no offer, the plain download card', async ({ page, request, api }) => {
  const share = await uploadShare(request, api, {
    name: `${uniqueName('report')}.docx`,
    mimeType: DOCX_TYPE,
    body: DOCX_BODY,
  });
  expect(
    ((await publicFile(request, share.slug)) as FileShareData & { office_preview: boolean }).office_preview,
  ).toBe(false);
  await page.goto(`/file/${share.slug}`);
  await expect(preview(page).getByTestId('download-card')).toContainText(
    'Office documents are not previewed',
  );
  await expect(preview(page).getByRole('button', { name: 'Office preview' })).toHaveCount(0);
});
