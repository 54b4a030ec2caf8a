/**
 * The share policy (docs/api.md, "Share policy") in the browser: the admin sets it in Settings →
 * Share policy; Home and the upload page show its limits in Chinese before anything is sent and
 * preselect its defaults; a text or a file larger than the policy allows is refused on the page,
 * in the server's words, and never sent. The policy binds every upload on the server, so this spec runs
 * in its own project after the main one and removes the policy afterwards.
 */
import { CLEAR_SHARE_POLICY } from '../../packages/shared/src/share-policy.ts';
import { expect, test } from '../support/fixtures.ts';
import { BASE_URL } from '../support/env.ts';
import { putSystemSettings, startSourceServer } from '../support/files.ts';

test.beforeEach(async ({ seedAdmin }) => {
  await seedAdmin();
});

test.afterEach(async ({ api, request }) => {
  const response = await request.put(`${BASE_URL}/api/admin/system-settings`, {
    headers: { Authorization: `Bearer ${await api.adminToken()}` },
    data: CLEAR_SHARE_POLICY,
  });
  expect(response.status(), await response.text()).toBe(200);
});

test('the admin sets a policy; Home and the upload page show it in Chinese; a too-large text or file is refused before sending', async ({
  page,
  request,
  api,
}) => {
  await page.goto('/admin/settings');
  const form = page.getByTestId('share-policy-settings');
  await expect(page.getByRole('heading', { name: 'Share policy' })).toBeVisible();
  await form.getByRole('spinbutton', { name: 'Default expiry (hours)' }).fill('24');
  await form.getByRole('spinbutton', { name: 'Longest expiry (hours)' }).fill('168');
  await form.getByRole('spinbutton', { name: 'Default view limit' }).fill('10');
  await form.getByRole('spinbutton', { name: 'Most views' }).fill('100');
  await form.getByRole('spinbutton', { name: 'Largest share (MB)' }).fill('1');
  await form.getByRole('textbox', { name: 'Allowed file types' }).fill('txt, .md');
  await form.getByTestId('save-share-policy').click();
  await expect(page.getByText('Share policy saved')).toBeVisible();

  await page.evaluate(() => localStorage.setItem('language', 'zh-CN'));
  const sent: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/(paste$|upload|s3\/|url\/presign|tus\/|user\/upload)/.test(request.url()))
      sent.push(request.url());
  });
  const limits = '最长 7 天后过期 · 最多 100 次查看 · 最大 1 MB';
  await page.goto('/');
  // A text share has no file type: Home names the other limits.
  await expect(page.getByTestId('share-policy-note')).toHaveText(limits);
  // The defaults are preselected: one day, ten views.
  await expect(page.locator('input[name="maxViews"]')).toHaveValue('10');
  // A text larger than the policy's largest share is refused in the form, never sent.
  await page.getByTestId('open-file-input').setInputFiles({
    name: 'long.txt',
    mimeType: 'text/plain',
    buffer: Buffer.alloc(1024 * 1024 + 1, 97),
  });
  await expect(page.getByTestId('text-stats')).toContainText(/1,?048,?577/);
  await page.getByTestId('create-paste').click();
  await expect(page.locator('#paste-content-error')).toHaveText('分享最大只能为 1 MB，此文本超出了上限。');

  await page.goto('/upload');
  await expect(page.getByTestId('share-policy-note')).toHaveText(`${limits} · 仅限 .txt, .md`);
  // The drop zone names the policy's largest share, smaller than the largest upload.
  await expect(page.getByTestId('max-upload-size')).toContainText('1 MB');
  await page.getByTestId('file-input').setInputFiles({
    name: 'big.txt',
    mimeType: 'text/plain',
    buffer: Buffer.alloc(2 * 1024 * 1024, 97),
  });
  await expect(page.getByTestId('item-refused')).toHaveText('分享最大只能为 1 MB（当前 2 MB）');
  await expect(page.getByTestId('start-upload')).toHaveCount(0);

  // From a URL of no announced size: the download is cut where it passes the limit, nothing sent.
  const source = await startSourceServer(
    { '/export.txt': { body: Buffer.alloc(2 * 1024 * 1024, 98), type: 'text/plain', unsized: true } },
    true,
  );
  await putSystemSettings(request, api, { url_allowlist: source.host });
  try {
    await page.getByTestId('tab-url').click();
    await page.locator('input[name=url]').fill(source.url('/export.txt'));
    await page.getByTestId('analyse-url').click();
    await expect(page.getByTestId('url-size')).toHaveText('大小未知');
    await page.getByTestId('upload-url').click();
    const cut = page.locator('[data-testid=upload-item][data-status=error]');
    await expect(cut).toContainText('已停止：下载的内容超过了允许的最大文件大小 1 MB。');
  } finally {
    await putSystemSettings(request, api, { url_allowlist: '' });
    await source.close();
  }
  expect(sent).toEqual([]);
});
