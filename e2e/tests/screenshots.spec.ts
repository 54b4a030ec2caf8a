/**
 * Walks every screen in both languages, both themes, at 375 px and 1280 px wide, saving a
 * screenshot of each to artifacts/screenshots/ (repo root, gitignored) for review. While doing so it
 * checks what a screenshot alone would hide: nothing overflows the viewport sideways, and the
 * page really is in the requested language and theme.
 */
import path from 'node:path';
import { expect, test } from '../support/fixtures.ts';
import { SCREENSHOT_DIR } from '../support/env.ts';
import { SCREENS, screenSession, showScreen } from '../support/screens.ts';

const WIDTHS = [375, 1280] as const;
/** SCREENS_ONLY=name,name… takes only those screens (to look at a few while working on them). */
const ONLY = process.env.SCREENS_ONLY?.split(',').map((name) => name.trim());
const screens = ONLY ? SCREENS.filter((screen) => ONLY.includes(screen.name)) : SCREENS;
const THEMES = ['light', 'dark'] as const;
const LANGUAGES = ['zh-CN', 'en-US'] as const;

for (const width of WIDTHS) {
  for (const theme of THEMES) {
    for (const language of LANGUAGES) {
      test(`screens at ${width}px, ${theme} theme, ${language}`, async ({ browser, api }) => {
        test.setTimeout(180_000);
        const folder = path.join(SCREENSHOT_DIR, `${width}-${theme}-${language}`);
        const session = screenSession(browser, api, {
          width,
          storage: { language, themeMode: theme },
          colorScheme: theme === 'dark' ? 'light' : 'dark',
        });
        try {
          for (const screen of screens) {
            const page = await session.pageFor(screen.as);
            await showScreen(page, screen, api);
            await expect(page.locator('html')).toHaveAttribute('lang', language);
            if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
            else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);

            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
            );
            expect
              .soft(overflow, `${screen.name} overflows sideways by ${overflow}px`)
              .toBeLessThanOrEqual(0);
            // A dialog is fixed to the viewport: it must fit in it, and a viewport shot shows it best.
            const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog'));
            const hasDialog = (await dialog.count()) > 0;
            if (hasDialog) {
              const box = await dialog.first().boundingBox();
              expect
                .soft(box && box.x >= 0 && box.x + box.width <= width, `${screen.name} dialog fits`)
                .toBe(true);
            }
            await page.screenshot({ path: path.join(folder, `${screen.name}.png`), fullPage: !hasDialog });
          }
        } finally {
          await session.close();
        }
      });
    }
  }
}
