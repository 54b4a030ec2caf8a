/**
 * Accessibility behaviour that axe cannot see (issue 16): the language menu follows the WAI-ARIA
 * menu-button pattern, toasts and upload progress go through live regions that exist before their
 * text, reduced motion stops transitions and animations, and whatever Tab reaches shows a focus
 * ring of at least 3:1 in both themes.
 */
import type { Page } from '@playwright/test';
import { focusRingOf, tabTo } from '../support/a11y.ts';
import { pngOf } from '../support/files.ts';
import { expect, seedStorage, test, uniqueName } from '../support/fixtures.ts';

const ZH_CHUNK = '**/assets/zh-CN-*.js';

test('the language switcher is a menu button: arrows, Home/End, a letter, Escape and Tab, Enter chooses', async ({
  page,
}) => {
  await page.goto('/');
  const button = page.getByRole('button', { name: 'Language: English' });
  await expect(button).toHaveAttribute('aria-haspopup', 'menu');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  const menu = page.getByRole('menu', { name: 'Language' });
  const english = menu.getByRole('menuitemradio', { name: 'English' });
  const chinese = menu.getByRole('menuitemradio', { name: '中文' });

  // Enter opens the menu on the checked item.
  await tabTo(page, button);
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(english).toHaveAttribute('aria-checked', 'true');
  await expect(chinese).toHaveAttribute('aria-checked', 'false');
  await expect(english).toBeFocused();
  // The arrows move and wrap; Home and End go to the ends; a letter goes to its item.
  await page.keyboard.press('ArrowUp');
  await expect(chinese).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(english).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(chinese).toBeFocused();
  await page.keyboard.press('End');
  await expect(english).toBeFocused();
  await page.keyboard.press('Home');
  await expect(chinese).toBeFocused();
  await page.keyboard.press('e');
  await expect(english).toBeFocused();
  // Escape closes it and gives the focus back to the button.
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  // Up Arrow opens it on the last item; Tab closes it and moves on to the next control.
  await page.keyboard.press('ArrowUp');
  await expect(english).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(menu).toBeHidden();
  await expect(page.getByTestId('theme-toggle')).toBeFocused();
  // A click outside closes it.
  await button.click();
  await expect(menu).toBeVisible();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(menu).toBeHidden();
  // Space opens it; Enter on an item chooses it, closes the menu and keeps the focus on the button.
  await button.focus();
  await page.keyboard.press('Space');
  await expect(english).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const chineseButton = page.getByRole('button', { name: '语言：中文' });
  await expect(chineseButton).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(
    page.getByRole('menu', { name: '语言' }).getByRole('menuitemradio', { checked: true }),
  ).toHaveText(/中文/);
});

test('the mobile menu closes on Escape from one of its links and gives the focus back to its toggle', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/');
  const toggle = page.getByTestId('mobile-menu-toggle');
  await tabTo(page, toggle);
  await page.keyboard.press('Enter');
  const menu = page.getByTestId('mobile-menu');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(menu.getByRole('link', { name: 'Home' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

/** Remembers the node of each toast region as the page first has it. */
async function rememberToastRegions(page: Page) {
  await expect(page.getByTestId('toast-status')).toBeAttached();
  await page.evaluate(() => {
    const w = window as unknown as Record<string, Element | null>;
    w.__status = document.querySelector('[data-testid=toast-status]');
    w.__alerts = document.querySelector('[data-testid=toast-alerts]');
  });
}

/** Whether the toast with this text was added to the region that was there before it (not created with it). */
async function toastRegionOf(page: Page, text: string): Promise<string | null> {
  const toast = page.getByTestId('toast').filter({ hasText: text });
  await expect(toast).toBeVisible();
  return toast.evaluate((el) => {
    const w = window as unknown as Record<string, Element | null>;
    if (el.closest('[aria-hidden=true]')) return 'hidden from assistive tech';
    if (w.__status?.contains(el)) return 'status';
    if (w.__alerts?.contains(el)) return 'alert';
    return null;
  });
}

test('toasts: errors in the alert region, others in the polite status region, both there before any toast', async ({
  page,
  seedAdmin,
}) => {
  await seedAdmin();
  await page.goto('/admin/settings');
  await rememberToastRegions(page);
  const status = page.getByTestId('toast-status');
  await expect(status).toHaveAttribute('role', 'status');
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await expect(page.getByTestId('toast-alerts')).toHaveAttribute('role', 'alert');
  await expect(page.getByTestId('toast')).toHaveCount(0);

  // Saving unchanged settings says so (information): polite.
  await page.getByTestId('save-uploads-settings').click();
  expect(await toastRegionOf(page, 'Nothing has changed.')).toBe('status');

  // A language whose texts cannot load: an error toast, in the alert region.
  await page.route(ZH_CHUNK, (route) => route.abort());
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitemradio', { name: '中文' }).click();
  expect(await toastRegionOf(page, 'Network error')).toBe('alert');
});

test('a toast shown while a dialog is open is still announced (its region is not hidden by the dialog)', async ({
  page,
  seedAdmin,
}) => {
  await seedAdmin();
  await page.goto('/admin/key-management');
  await rememberToastRegions(page);
  await page.getByTestId('create-key').click();
  const dialog = page.getByTestId('create-key-dialog');
  await dialog.locator('input[name=name]').fill(uniqueName('live'));
  await dialog.getByRole('checkbox', { name: 'Text' }).check();
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByTestId('key-recipes')).toBeVisible();
  // A recipe's copy button says "Copied" (or that copying failed) in a toast.
  await dialog.locator('[data-testid^=copy-recipe-]').first().click();
  const toast = page.getByTestId('toast').last();
  await expect(toast).toBeVisible();
  const text = (await toast.textContent())!.replace('×', '').trim();
  expect(['status', 'alert']).toContain(await toastRegionOf(page, text));
});

test('upload progress is announced politely by a region that is on the page before the upload', async ({
  page,
  seedAdmin,
}) => {
  await seedAdmin();
  await page.goto('/upload');
  const announcer = page.getByTestId('upload-announcer');
  await expect(announcer).toHaveAttribute('role', 'status');
  await expect(announcer).toHaveText('');
  // Every text the region is given, in order, on the node that was there before.
  await announcer.evaluate((el) => {
    const texts: string[] = [];
    (window as unknown as { __announced: string[] }).__announced = texts;
    new MutationObserver(() => {
      const text = el.textContent ?? '';
      if (texts.at(-1) !== text) texts.push(text);
    }).observe(el, { childList: true, characterData: true, subtree: true });
  });
  const name = `${uniqueName('live')}.png`;
  await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'image/png', buffer: pngOf(8, 8) });
  const start = page.getByTestId('start-upload');
  if (await start.isVisible()) await start.click();
  await expect(page.getByTestId('upload-item').filter({ hasText: name })).toHaveAttribute(
    'data-status',
    'success',
  );
  await expect(announcer).toHaveText('1 file uploaded.');
  const announced = await page.evaluate(() => (window as unknown as { __announced: string[] }).__announced);
  // Only the steps, not every tick of the progress bar.
  expect(announced.length).toBeLessThanOrEqual(5);
  for (const text of announced.slice(0, -1))
    expect(text).toMatch(new RegExp(`^Uploading ${name}: (0|25|50|75) %$`));
  // The bar's own texts (speed, time left) are not a live region.
  await expect(page.locator('[data-testid=upload-list] [aria-live]')).toHaveCount(0);
});

test('reduced motion: the spinner stands still and buttons and links change without a transition', async ({
  page,
  seedAdmin,
}) => {
  await seedAdmin();
  // Keep the list loading, so that its spinner stays on screen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/admin\/pastes/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/admin/text-management');
  // The module is in (its button shows) and its list is loading: that spinner stays.
  const button = page.getByTestId('clear-expired');
  await expect(button).toBeVisible();
  const spinner = page.locator('main svg.animate-spin');
  await expect(spinner).toHaveCount(1);
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload' });
  const timing = () =>
    Promise.all([
      spinner.evaluate((el) => {
        const style = getComputedStyle(el);
        return `${style.animationDuration} × ${style.animationIterationCount}`;
      }),
      button.evaluate((el) => getComputedStyle(el).transitionDuration),
      link.evaluate((el) => getComputedStyle(el).transitionDuration),
    ]);

  await page.emulateMedia({ reducedMotion: 'no-preference' });
  const [spin, buttonTransition, linkTransition] = await timing();
  expect(spin).toBe('1s × infinite');
  expect(buttonTransition).not.toBe('0s');
  expect(linkTransition).not.toBe('0s');

  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await timing()).toEqual(['0s × 1', '0s', '0s']);
  release();
});

test('the editor shows its focus ring the moment it takes the focus, and not once it lost it', async ({
  page,
}) => {
  await page.goto('/');
  const content = page.locator('.cm-content');
  await expect(content).toBeVisible();
  const editor = page.locator('.cm-editor');
  // Read in the same task as the focus change, so before any timer: CodeMirror marks itself
  // .cm-focused from one, 3 to 55 ms later, and a ring hung on that mark lags behind the focus.
  const ringOnFocus = await content.evaluate((el) => {
    el.focus();
    const style = getComputedStyle(el.closest('.cm-editor')!);
    return `${style.outlineStyle} ${style.outlineWidth}`;
  });
  expect(ringOnFocus).toBe('solid 2px');
  await content.evaluate((el) => el.blur());
  await expect(editor).toHaveCSS('outline-style', 'none');
});

// A test per screen and theme (they run side by side), each reading a control per Tab in one round trip.
for (const theme of ['light', 'dark'] as const) {
  for (const path of ['/', '/upload', '/admin/key-management', '/admin/settings']) {
    test(`every control Tab reaches shows a focus ring of at least 3:1 (${theme}, ${path})`, async ({
      page,
      seedAdmin,
    }) => {
      await seedAdmin();
      await seedStorage(page, { themeMode: theme });
      const problems: string[] = [];
      const seen = new Set<string>();
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
      let inEditor = false;
      for (let stop = 0; stop < 45; stop++) {
        // In the editor Tab indents; Escape then Tab leaves it, as CodeMirror documents.
        if (inEditor) await page.keyboard.press('Escape');
        await page.keyboard.press('Tab');
        const ring = await focusRingOf(page);
        inEditor = ring?.inEditor === true;
        if (!ring || seen.has(ring.element)) continue;
        seen.add(ring.element);
        if (ring.width < 2 || ring.contrast < 3) {
          problems.push(
            `${path}: ${ring.element} — outline ${ring.style} ${ring.width}px, contrast ${ring.contrast.toFixed(2)}:1`,
          );
        }
      }
      expect(seen.size, 'controls reached by Tab').toBeGreaterThan(5);
      expect(problems).toEqual([]);
    });
  }
}
