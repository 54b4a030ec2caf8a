/**
 * Screenshots of the installable app's screens for review (issue 14): the offline badge over a
 * saved paste with the install prompt, a file share's page offline, and the offline fallback page,
 * in both languages and themes at 375 and 1280 px, to artifacts/screenshots/pwa/ (gitignored).
 * Each checks the language shown.
 */
import path from 'node:path';
import { SCREENSHOT_DIR } from '../support/env.ts';
import { pngOf, uploadShare } from '../support/files.ts';
import { expect, seedStorage, test, uniqueName } from '../support/fixtures.ts';

test.use({ serviceWorkers: 'allow' });

const TEXTS = {
  'en-US': {
    badge: 'Offline · copy from',
    fallback: 'Page temporarily unavailable',
    install: 'Install Cubby',
    fileOffline: 'Not available offline',
  },
  'zh-CN': {
    badge: '离线 ·',
    fallback: '页面暂时无法访问',
    install: '安装 Cubby',
    fileOffline: '离线时不可用',
  },
} as const;

for (const language of ['en-US', 'zh-CN'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`offline screens in ${language}, ${theme}`, async ({ page, context, request, api }) => {
      const texts = TEXTS[language];
      const slug = uniqueName('shot');
      await api.createPaste({ content: '# Notes\n\nRead on the plane.', slug, remark: 'Plane notes' });
      const file = await uploadShare(request, api, {
        name: 'boarding-pass.png',
        mimeType: 'image/png',
        body: pngOf(320, 180),
      });
      await seedStorage(page, { language, themeMode: theme });
      await page.goto('/');
      await page.waitForFunction(
        () => navigator.serviceWorker?.controller?.state === 'activated',
        undefined,
        {
          timeout: 20_000,
        },
      );
      await page.goto(`/file/${file.slug}`);
      await expect(page.getByTestId('image-preview')).toBeVisible();
      await page.goto(`/paste/${slug}`);
      await expect(page.getByTestId('paste-content')).toBeVisible();
      await context.setOffline(true);
      await page.reload();
      await expect(page.getByTestId('offline-badge')).toContainText(texts.badge);
      await page.evaluate(() =>
        window.dispatchEvent(
          Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
            prompt: async () => undefined,
            userChoice: Promise.resolve({ outcome: 'dismissed' }),
          }),
        ),
      );
      await expect(page.getByTestId('install-prompt')).toContainText(texts.install);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: width < 768 ? 800 : 900 });
        await page.screenshot({
          path: path.join(SCREENSHOT_DIR, 'pwa', `${width}-${theme}-${language}-offline-paste.png`),
        });
      }
      await page.goto(`/file/${file.slug}`);
      await expect(page.getByTestId('preview-offline')).toContainText(texts.fileOffline);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: width < 768 ? 800 : 900 });
        await page.screenshot({
          path: path.join(SCREENSHOT_DIR, 'pwa', `${width}-${theme}-${language}-offline-file.png`),
        });
      }
      await page.goto('/upload');
      await expect(page.getByRole('heading', { level: 1, name: texts.fallback })).toBeVisible();
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: width < 768 ? 800 : 900 });
        await page.screenshot({
          path: path.join(SCREENSHOT_DIR, 'pwa', `${width}-${theme}-${language}-fallback.png`),
        });
      }
    });
  }
}
