/**
 * Translations load in parts (packages/web/src/lib/i18n/locale-sections.ts): the core part with the
 * app, each section with the lazy screens that use it.
 * - every screen shows its texts, never a translation key (what a screen missing a section shows);
 * - the paste view loads the core part only, and the edit dialog brings its own section;
 * - a language switch loads the sections already in use before the UI changes language, so no
 *   key ever shows, not even for a moment.
 */
import type { Page } from '@playwright/test';
import { chooseLanguage } from '../support/a11y.ts';
import { expect, seedStorage, test, uniqueName } from '../support/fixtures.ts';
import { knownKeys, loadLocale } from '../support/locales.ts';
import { WALKED_SCREENS, screenSession, showScreen, walkParts } from '../support/screens.ts';

/** Dotted words on the page (text, labels, title) that are translation keys. */
async function keysShown(page: Page, keys: Set<string>): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const labels = [...document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')].flatMap(
      (element) =>
        ['aria-label', 'title', 'placeholder', 'alt'].map((name) => element.getAttribute(name) ?? ''),
    );
    return [document.body.innerText, document.title, ...labels].join('\n');
  });
  return [...new Set(shown.match(/[a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)+/g) ?? [])].filter((word) =>
    keys.has(word),
  );
}

/** The locale parts the page requested, as `en-US/core` (chunk names from vite.config.ts). */
function recordLocaleParts(page: Page): string[] {
  const parts: string[] = [];
  page.on('request', (request) => {
    const match = /\/assets\/(zh-CN|en-US)-(\w+)-[\w-]+\.js$/.exec(request.url());
    if (match) parts.push(`${match[1]}/${match[2]}`);
  });
  return parts;
}

// One pass over every screen of the walk (e2e/support/screens.ts), which grows with the app: in
// parts of a few screens that run side by side.
test.describe('every screen shows texts, never a translation key', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const part of walkParts(WALKED_SCREENS, 30, 15_000)) {
    test(part.label, async ({ browser, api }) => {
      test.setTimeout(part.timeout);
      const keys = knownKeys();
      const session = screenSession(browser, api, { width: 1280, storage: { language: 'en-US' } });
      const problems: string[] = [];
      try {
        for (const screen of part.screens) {
          const page = await session.pageFor(screen.as);
          await showScreen(page, screen, api);
          for (const key of await keysShown(page, keys)) problems.push(`${screen.name}: ${key}`);
        }
      } finally {
        await session.close();
      }
      expect(problems).toEqual([]);
    });
  }
});

test('the paste view loads only the core texts; the edit dialog brings its own', async ({
  page,
  api,
  seedAdmin,
}) => {
  const parts = recordLocaleParts(page);
  const slug = uniqueName('parts');
  await api.createPaste({ content: '# Parts\n\ntext', slug });
  await seedAdmin();
  await seedStorage(page, { language: 'en-US' });
  await page.goto(`/paste/${slug}`);
  await expect(page.getByTestId('paste-content')).toBeVisible();
  expect(parts).toEqual(['en-US/core']);

  await page.getByTestId('edit-paste').click();
  const dialog = page.getByTestId('edit-paste-dialog');
  await expect(
    dialog.getByRole('heading', { name: loadLocale('en-US').get('pastes.edit.title') }),
  ).toBeVisible();
  expect(parts).toEqual(['en-US/core', 'en-US/pastes']);
  expect(await keysShown(page, knownKeys())).toEqual([]);
});

test('a language switch loads the sections in use first, and never shows a key', async ({ page }) => {
  const keys = knownKeys();
  // Every text node and label the page ever shows, checked as it appears.
  await page.addInitScript(
    (list: string[]) => {
      const known = new Set(list);
      const seen: string[] = [];
      (window as unknown as { __keysSeen: string[] }).__keysSeen = seen;
      const check = (text: string | null) => {
        for (const word of text?.match(/[a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)+/g) ?? []) {
          if (known.has(word)) seen.push(word);
        }
      };
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.type === 'characterData') check(record.target.textContent);
          for (const node of record.addedNodes) check(node.textContent);
          if (record.type === 'attributes' && record.target instanceof Element)
            check(record.target.getAttribute(record.attributeName ?? ''));
        }
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    },
    [...keys],
  );
  await seedStorage(page, { language: 'en-US' });
  const parts = recordLocaleParts(page);
  const en = loadLocale('en-US');
  const zh = loadLocale('zh-CN');

  // The admin screen (login form) uses the admin section.
  await page.goto('/admin');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(en.get('auth.login.title')!);

  // Hold back the Chinese admin texts: the page must stay English until they are in.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/zh-CN-admin-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await chooseLanguage(page, '中文');
  await expect.poll(() => parts.includes('zh-CN/admin')).toBe(true);
  await expect(heading).toHaveText(en.get('auth.login.title')!);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');

  release();
  await expect(heading).toHaveText(zh.get('auth.login.title')!);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  expect(parts).toEqual(expect.arrayContaining(['en-US/core', 'en-US/admin', 'zh-CN/core', 'zh-CN/admin']));
  expect(await page.evaluate(() => (window as unknown as { __keysSeen: string[] }).__keysSeen)).toEqual([]);
});
