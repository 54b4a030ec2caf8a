/**
 * Walks every screen once per language and saves a screenshot of each in both themes at 375 px and
 * 1280 px wide to artifacts/screenshots/<width>-<theme>-<language>/ (repo root, gitignored) for
 * review. One walk per language: each screen is opened once, then the window is resized and the
 * system colour scheme switched (the theme is `auto`, so the app follows it as it does for users),
 * which takes the eight variants for the price of two walks. While doing so it checks what a
 * screenshot alone would hide: nothing overflows the viewport sideways, dialogs fit, and the page
 * really is in the requested language and theme. (Explicit light/dark choices are tested in
 * preferences.spec.)
 *
 * Each screen is also run through axe-core with the WCAG 2.1 A and AA rules at 1280 px, in both
 * themes and both languages (Chinese in the light theme, English in the dark one): any violation
 * fails the walk, naming the screen, the rule and the elements. A screen showing form errors must
 * tie each to its field (aria-describedby) and have the focus on the first invalid field.
 */
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { formErrorProblems } from '../support/a11y.ts';
import { expect, test } from '../support/fixtures.ts';
import { SCREENSHOT_DIR } from '../support/env.ts';
import { WALKED_SCREENS, screenSession, showScreen, walkParts } from '../support/screens.ts';

const WIDTHS = [1280, 375] as const;
/** Widths checked for reflow only (no screenshots): WCAG 1.4.10 asks for 320 CSS px. */
const REFLOW_WIDTHS = [320, 640] as const;
const THEMES = ['light', 'dark'] as const;
const LANGUAGES = ['zh-CN', 'en-US'] as const;
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * The theme each language's walk is checked in: colours depend on the theme and names on the
 * language, so crossing them covers both themes and both languages at half the cost of all four.
 */
const AXE_THEME = { 'zh-CN': 'light', 'en-US': 'dark' } as const;

/**
 * The WCAG 2.1 A/AA violations on the page, one line each: rule, impact, elements. With a modal open
 * only the modal is checked: the page behind it is inert (and checked as a screen of its own), and
 * its colours under the dimming overlay are not what anyone reads.
 */
async function accessibilityProblems(page: Page, modal: string | undefined): Promise<string[]> {
  // Colours still easing from the other theme (links and buttons have colour transitions) are not
  // what anyone reads: let every finite animation and transition end first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (modal) builder.include(modal);
  const { violations } = await builder.analyze();
  return violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'unknown'}): ${v.help} — ${v.nodes
        .slice(0, 5)
        .map((n) => n.target.join(' '))
        .join(', ')}${v.nodes.length > 5 ? ` and ${v.nodes.length - 5} more` : ''}`,
  );
}

// Each language's walk in parts of a few screens, spread over the workers (a walk takes minutes).
test.describe.configure({ mode: 'parallel' });

for (const language of LANGUAGES) {
  for (const part of walkParts(WALKED_SCREENS, 12, 30_000)) {
    test(`screens in ${language} (${part.label}): 375 and 1280 px, light and dark, WCAG 2.1 A/AA under axe`, async ({
      browser,
      api,
    }) => {
      test.setTimeout(part.timeout);
      const session = screenSession(browser, api, {
        width: WIDTHS[0],
        storage: { language, themeMode: 'auto' },
      });
      try {
        for (const screen of part.screens) {
          const page = await session.pageFor(screen.as);
          await page.setViewportSize({ width: WIDTHS[0], height: 900 });
          await page.emulateMedia({ colorScheme: 'light' });
          await showScreen(page, screen, api);
          await expect(page.locator('html')).toHaveAttribute('lang', language);
          // A form with errors: each tied to its field, and the focus on the first (WCAG 3.3.1).
          expect
            .soft(await formErrorProblems(page), `${screen.name}: form errors described, focus on the first`)
            .toEqual([]);
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: width < 768 ? 800 : 900 });
            for (const theme of THEMES) {
              await page.emulateMedia({ colorScheme: theme });
              if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
              else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
              const where = `${screen.name} at ${width}px`;
              const overflow = await page.evaluate(
                () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
              );
              expect.soft(overflow, `${where} overflows sideways by ${overflow}px`).toBeLessThanOrEqual(0);
              // A dialog is fixed to the viewport: it must fit in it, and a viewport shot shows it best.
              const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog'));
              const hasDialog = (await dialog.count()) > 0;
              if (hasDialog) {
                const box = await dialog.first().boundingBox();
                expect
                  .soft(box && box.x >= 0 && box.x + box.width <= width, `${where}: dialog fits`)
                  .toBe(true);
              }
              if (width === WIDTHS[0] && theme === AXE_THEME[language]) {
                const modal =
                  (await page.getByRole('alertdialog').count()) > 0 ? '[role=alertdialog]' : '[role=dialog]';
                const problems = await accessibilityProblems(page, hasDialog ? modal : undefined);
                expect
                  .soft(problems, `${screen.name} (${theme}, ${language}) under axe WCAG 2.1 A/AA`)
                  .toEqual([]);
              }
              const folder = path.join(SCREENSHOT_DIR, `${width}-${theme}-${language}`);
              await page.screenshot({ path: path.join(folder, `${screen.name}.png`), fullPage: !hasDialog });
            }
          }
          // The narrowest phones, and 1280 px at 200 % zoom (640 CSS px): still no sideways scrolling.
          for (const width of REFLOW_WIDTHS) {
            await page.setViewportSize({ width, height: 800 });
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
            );
            expect
              .soft(overflow, `${screen.name} at ${width}px overflows sideways by ${overflow}px`)
              .toBeLessThanOrEqual(0);
          }
        }
      } finally {
        await session.close();
      }
    });
  }
}
