/**
 * A shared file's page, /file/:slug (docs/product.md §2; docs/api.md, "Sharing files"): details,
 * download, copy link and QR code; the preview of each kind — image, video, audio, PDF, text with
 * highlighting (first MiB only, asked for with Range), Markdown rendered safely, HTML in a sandboxed
 * frame whose scripts never run, a download card for Office and other files; the password gate;
 * the pages for unknown, used-up and expired links (the server clock is moved, so that test is
 * last).
 */
import type { Page } from '@playwright/test';
import { expect, test, uniqueName } from '../support/fixtures.ts';
import {
  pdfOf,
  pngOf,
  publicFile,
  recordWebm,
  uploadShare,
  wavOf,
  downloadBytes,
  type FileShareData,
} from '../support/files.ts';
import { BASE_URL } from '../support/env.ts';

const preview = (page: Page) => page.getByTestId('file-preview');

test('an image: details, preview, download, copy link and QR; one view for the visit', async ({
  page,
  context,
  request,
  api,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = `${uniqueName('photo')}.png`;
  const share = await uploadShare(request, api, {
    name,
    mimeType: 'image/png',
    body: pngOf(40, 30),
    remark: 'Holiday picture',
    maxViews: 10,
  });
  await page.goto(`/file/${share.slug}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const facts = page.getByTestId('file-facts');
  await expect(facts).toContainText('Image');
  await expect(facts).toContainText('image/png');
  await expect(facts).toContainText('Never expires');
  // This visit's view included (the page's preview and download make it).
  await expect(facts).toContainText('Views: 1 of 10');
  await expect(page.getByTestId('file-remark')).toHaveText('Holiday picture');
  const image = preview(page).getByTestId('image-preview');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);

  const download = page.waitForEvent('download');
  await page.getByTestId('download').click();
  expect((await download).suggestedFilename()).toBe(name);

  await page.getByTestId('copy-link').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${BASE_URL}/file/${share.slug}`);
  await page.getByTestId('toggle-qr').click();
  await expect(page.getByTestId('qr-code')).toBeVisible();

  // The preview and the download went through the share's token: one view, not two.
  expect(((await publicFile(request, share.slug)) as FileShareData).views).toBe(1);
});

test('video and audio play in the page', async ({ page, request, api }) => {
  await page.goto('/');
  const video = await uploadShare(request, api, {
    name: `${uniqueName('clip')}.webm`,
    mimeType: 'video/webm',
    body: await recordWebm(page),
  });
  const audio = await uploadShare(request, api, {
    name: `${uniqueName('tone')}.wav`,
    mimeType: 'audio/wav',
    body: wavOf(),
  });
  await page.goto(`/file/${video.slug}`);
  const player = preview(page).getByTestId('video-preview');
  await expect(player).toBeVisible();
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(64);

  await page.goto(`/file/${audio.slug}`);
  const sound = preview(page).getByTestId('audio-preview');
  await expect(sound).toBeVisible();
  await expect.poll(() => sound.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(0.5, 1);
});

test('a PDF shows in the browser viewer, served inline', async ({ page, request, api }) => {
  const share = await uploadShare(request, api, {
    name: `${uniqueName('paper')}.pdf`,
    mimeType: 'application/pdf',
    body: pdfOf('Hello PDF'),
  });
  await page.goto(`/file/${share.slug}`);
  const frame = preview(page).getByTestId('pdf-preview');
  await expect(frame).toBeVisible();
  const src = (await frame.getAttribute('src'))!;
  expect(src).toContain(`/api/file-view/${share.slug}`);
  const response = await request.get(src);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect(response.headers()['content-disposition']).toMatch(/^inline/);
});

test('code is highlighted; only the first MiB of a large text is read', async ({ page, request, api }) => {
  const code = await uploadShare(request, api, {
    name: `${uniqueName('app')}.ts`,
    mimeType: 'text/plain',
    body: Buffer.from('export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n'),
  });
  await page.goto(`/file/${code.slug}`);
  const text = preview(page).getByTestId('text-preview');
  await expect(text).toContainText('export function greet');
  await expect(text.locator('.hljs-keyword').first()).toBeVisible();

  const big = await uploadShare(request, api, {
    name: `${uniqueName('log')}.log`,
    mimeType: 'text/plain',
    body: Buffer.from('line of a long log file\n'.repeat(65_536)), // 1.5 MiB
  });
  const ranges: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/api/file-view/${big.slug}`)) ranges.push(r.headers()['range'] ?? '');
  });
  await page.goto(`/file/${big.slug}`);
  await expect(preview(page).getByTestId('preview-truncated')).toContainText('first 1 MB');
  const shown = await preview(page)
    .getByTestId('text-preview')
    .evaluate((el) => el.textContent!.length);
  expect(shown).toBe(1024 * 1024);
  expect(ranges).toEqual(['bytes=0-1048575']);
});

test('Markdown is rendered and sanitised', async ({ page, request, api }) => {
  const share = await uploadShare(request, api, {
    name: `${uniqueName('notes')}.md`,
    mimeType: 'text/markdown',
    body: Buffer.from(
      '# Project notes\n\n- [x] done\n\n<img src=x onerror="document.title=\'pwned\'">\n\n<script>document.title="pwned"</script>\n',
    ),
  });
  await page.goto(`/file/${share.slug}`);
  const rendered = preview(page).getByTestId('markdown-preview');
  await expect(rendered.getByRole('heading', { level: 1, name: 'Project notes' })).toBeVisible();
  await expect(rendered.locator('input[type=checkbox]')).toBeChecked();
  await expect(rendered.locator('[onerror], script')).toHaveCount(0);
  await expect(page).not.toHaveTitle('pwned');
});

test('HTML shows in a sandboxed frame where its scripts never run', async ({ page, request, api }) => {
  const share = await uploadShare(request, api, {
    name: `${uniqueName('page')}.html`,
    mimeType: 'text/html',
    body: Buffer.from(
      '<!doctype html><title>before</title><h1>Hello HTML</h1><script>document.title="after";parent.document.title="pwned"</script>',
    ),
  });
  await page.goto(`/file/${share.slug}`);
  const frameElement = preview(page).getByTestId('html-preview');
  await expect(frameElement).toHaveAttribute('sandbox', '');
  const frame = page.frameLocator('[data-testid=html-preview]');
  await expect(frame.getByRole('heading', { name: 'Hello HTML' })).toBeVisible();
  const inner = page.frames().find((f) => f !== page.mainFrame())!;
  expect(await inner.evaluate(() => document.title)).toBe('before');
  await expect(page).not.toHaveTitle('pwned');
});

test('Office documents and other files get a download card', async ({ page, request, api }) => {
  const docx = await uploadShare(request, api, {
    name: `${uniqueName('report')}.docx`,
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    body: Buffer.from('PK\u0003\u0004 not really a document'),
  });
  await page.goto(`/file/${docx.slug}`);
  await expect(preview(page).getByTestId('download-card')).toContainText(
    'Office documents are not previewed',
  );
  const zipName = `${uniqueName('bundle')}.zip`;
  const zip = await uploadShare(request, api, {
    name: zipName,
    mimeType: 'application/zip',
    body: Buffer.from('PK'),
  });
  await page.goto(`/file/${zip.slug}`);
  await expect(preview(page).getByTestId('download-card')).toContainText('cannot be previewed');
  const download = page.waitForEvent('download');
  await preview(page).getByTestId('download-card-link').click();
  expect((await download).suggestedFilename()).toBe(zipName);
});

test('a protected file asks for its password; the unlocked links carry a token', async ({
  page,
  request,
  api,
}) => {
  const name = `${uniqueName('secret')}.png`;
  const share = await uploadShare(request, api, {
    name,
    mimeType: 'image/png',
    body: pngOf(8, 8),
    password: 'open sesame',
  });
  expect(share.requires_password).toBe(true);
  await page.goto(`/file/${share.slug}`);
  const gate = page.getByTestId('file-password-gate');
  await expect(page.getByRole('heading', { level: 1, name: 'This file is protected' })).toBeVisible();
  await gate.getByRole('button', { name: 'Open' }).click();
  await expect(gate.getByText('Enter the password.')).toBeVisible();
  await gate.getByLabel('Password').fill('wrong');
  await gate.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('file-password-error')).toBeVisible();
  await gate.getByLabel('Password').fill('open sesame');
  await gate.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByTestId('file-facts')).toContainText('Password');
  await expect(preview(page).getByTestId('image-preview')).toHaveAttribute('src', /[?&]token=/);
  await expect(page.getByTestId('download')).toHaveAttribute('href', /[?&]token=/);
  // Without the password the bytes stay locked.
  expect((await request.get(`${BASE_URL}/api/file-view/${share.slug}`)).status()).toBe(401);
});

test('the views include this visit; its last allowed view is announced (max 1 and 2, previewed or downloaded)', async ({
  page,
  request,
  api,
}) => {
  const facts = page.getByTestId('file-facts');
  const lastView = page.getByTestId('last-view');
  const image = { mimeType: 'image/png', body: pngOf(8, 8) };
  const twice = await uploadShare(request, api, {
    name: `${uniqueName('twice')}.png`,
    ...image,
    maxViews: 2,
  });
  await page.goto(`/file/${twice.slug}`);
  await expect(facts).toContainText('Views: 1 of 2');
  await expect(preview(page).getByTestId('image-preview')).toBeVisible();
  await expect(lastView).toHaveCount(0);
  await expect.poll(async () => ((await publicFile(request, twice.slug)) as FileShareData).views).toBe(1);
  await page.reload();
  await expect(facts).toContainText('Views: 2 of 2');
  await expect(lastView).toHaveText(
    'This is the last allowed view: showing the file here used it, and the link stops working for everyone once you leave this page. Download the file now if you need it.',
  );
  await expect.poll(async () => await publicFile(request, twice.slug)).toBe(410);

  const zipName = `${uniqueName('once')}.zip`;
  const once = await uploadShare(request, api, {
    name: zipName,
    mimeType: 'application/zip',
    body: Buffer.from('PK'),
    maxViews: 1,
  });
  await page.evaluate(() => localStorage.setItem('language', 'zh-CN'));
  await page.goto(`/file/${once.slug}`);
  await expect(facts).toContainText('访问次数：1 / 1');
  await expect(lastView).toHaveText('这是最后一次允许的查看：下载文件后，链接将对所有人失效。');
  // Only the download counts it.
  expect(((await publicFile(request, once.slug)) as FileShareData).views).toBe(0);
  const download = page.waitForEvent('download');
  await page.getByTestId('download').click();
  expect((await download).suggestedFilename()).toBe(zipName);
  await expect.poll(async () => await publicFile(request, once.slug)).toBe(410);
});

test('unknown and used-up links say so', async ({ page, request, api }) => {
  await page.goto('/file/no-such-file-here');
  await expect(page.getByRole('heading', { level: 1, name: 'File not found' })).toBeVisible();

  const share = await uploadShare(request, api, {
    name: 'once.txt',
    mimeType: 'text/plain',
    body: Buffer.from('once'),
    maxViews: 1,
  });
  expect((await downloadBytes(request, share.slug)).toString()).toBe('once');
  await page.goto(`/file/${share.slug}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'This file is no longer available' }),
  ).toBeVisible();
  await expect(page.getByTestId('file-unavailable-reason')).not.toBeEmpty();
});

test('an expired link shows the "no longer available" page (server clock moved)', async ({
  page,
  request,
  api,
}) => {
  const share = await uploadShare(request, api, {
    name: 'soon.txt',
    mimeType: 'text/plain',
    body: Buffer.from('soon gone'),
    expiresIn: 1,
  });
  await page.goto(`/file/${share.slug}`);
  await expect(page.getByTestId('file-facts')).toContainText('Expires');
  await expect(preview(page).getByTestId('text-preview')).toHaveText('soon gone');
  await api.advanceClock(2 * 3600_000);
  await page.reload();
  await expect(page.getByTestId('file-gone')).toBeVisible();
});
