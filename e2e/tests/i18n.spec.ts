/**
 * Translations (docs/product.md §1, docs/architecture.md, "Texts"):
 * - both locales have exactly the same keys and placeholders;
 * - no screen renders text that is not a translation key. With localStorage `language` = `cimode`
 *   and `?i18n-test` in the URL the app renders keys instead of text; every text node, title,
 *   label, placeholder and the document title must then be a known key, user data, or one of a few
 *   allowed literals.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { compareLocales, knownKeys, loadLocale } from '../support/locales.ts';
import { WALKED_SCREENS, screenSession, showScreen, walkParts } from '../support/screens.ts';

test('both locales have the same keys and placeholders', () => {
  expect(compareLocales(loadLocale('zh-CN'), loadLocale('en-US'), ['zh-CN', 'en-US'])).toEqual([]);
});

test('the locale comparison notices a missing key and a wrong placeholder', () => {
  const zh = new Map([
    ['a.title', '标题'],
    ['a.count', '共 {{count}} 项'],
  ]);
  const en = new Map([['a.count', '{{total}} items']]);
  const problems = compareLocales(zh, en, ['zh-CN', 'en-US']);
  expect(problems).toContain('a.title is missing in en-US');
  expect(problems.some((problem) => problem.startsWith('a.count has placeholders'))).toBe(true);
});

/**
 * Literal texts that are not translated on purpose, and messages the server translates itself (its
 * own catalogue, in the request's language: English in key mode), shown as they come.
 */
const ALLOWED = new Set([
  '中文',
  'English',
  'Cubby',
  'Wrong password',
  'No mount holds this path',
  // A failed copy task's error and its item's (the tasks screen).
  'Some items could not be copied',
  'A file is in the way where a folder should be',
]);

interface Rendered {
  texts: string[];
  attributes: string[];
  title: string;
}

async function renderedText(page: Page): Promise<Rendered> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('script, style, noscript')) continue;
      // A <time> element shows a date formatted by Intl, which is data, not wording; paste content
      // (and other things users wrote) is marked as user content.
      if (parent.closest('time[datetime], [data-user-content]')) continue;
      texts.push(text);
    }
    const attributes: string[] = [];
    // Attributes of what the page shows: the <head>'s (a share page's link card) are for robots.
    for (const element of document.body.querySelectorAll(
      '[aria-label], [title], [placeholder], [alt], [aria-roledescription]',
    )) {
      if (element.closest('[data-user-content]')) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-roledescription']) {
        const value = element.getAttribute(name)?.trim();
        if (value) attributes.push(value);
      }
    }
    return { texts, attributes, title: document.title };
  });
}

function withKeysMode(path: string): string {
  // The query goes before a fragment (`/login/oidc#error=…`), which the page reads itself.
  const [base = '', fragment] = path.split(/(?=#)/);
  return `${base.includes('?') ? `${base}&i18n-test` : `${base}?i18n-test`}${fragment ?? ''}`;
}

test.describe.configure({ mode: 'parallel' });

// Every screen, in parts of a few screens that run side by side (the whole walk takes minutes).
for (const part of walkParts(WALKED_SCREENS, 15, 20_000)) {
  test(`every screen renders only translation keys in key mode (${part.label})`, async ({ browser, api }) => {
    test.setTimeout(part.timeout);
    const keys = knownKeys();
    const session = screenSession(browser, api, { width: 1280, storage: { language: 'cimode' } });
    const problems: string[] = [];
    try {
      for (const screen of part.screens) {
        const page = await session.pageFor(screen.as);
        const opened = await showScreen(page, screen, api, withKeysMode);
        // User data on the screen: the URL's own segments and every key record.
        const records = await api.listKeys();
        const userData = new Set<string>([
          ...opened.split(/[/?=&]/).filter(Boolean),
          ...records.flatMap((record) => [
            String(record.name),
            String(record.key_masked),
            String(record.basic_path),
          ]),
        ]);
        const createdKey = page.getByTestId('created-key');
        if ((await createdKey.count()) > 0) userData.add(await createdKey.inputValue());

        const isAllowed = (text: string) =>
          keys.has(text) ||
          ALLOWED.has(text) ||
          userData.has(text) ||
          /^[^\p{L}]*$/u.test(text) || // digits, punctuation, symbols
          /^(https?|ldaps?):\/\/\S+$/.test(text) || // example addresses (placeholders)
          /^[a-z0-9-]+\.example\.(com|org|net)$/.test(text) || // example host names (RFC 2606)
          /^(\/[a-z0-9._-]+)+$/.test(text) || // example absolute paths (placeholders)
          text === 'SHA256:…' || // the form of an SSH host key fingerprint (a placeholder)
          /^([a-z]+=[^,\s]+)(,[a-z]+=[^,\s]+)*$/i.test(text); // example LDAP names (cn=…,dc=…)

        const { texts, attributes, title } = await renderedText(page);
        for (const text of [...texts, ...attributes]) {
          if (!isAllowed(text)) problems.push(`${screen.name}: "${text}"`);
        }
        const titleKey = title.replace(/ - Cubby$/, '');
        for (const part of titleKey.split(' - ')) {
          if (!keys.has(part)) problems.push(`${screen.name}: title "${title}"`);
        }
      }
    } finally {
      await session.close();
    }
    expect([...new Set(problems)]).toEqual([]);
  });
}

test('key mode is only honoured together with the URL flag', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('language', 'cimode'));
  await page.goto('/');
  await expect(page).toHaveTitle('Online clipboard - Cubby');
  await page.goto('/?i18n-test');
  await expect(page).toHaveTitle('titles.home - Cubby');
});
