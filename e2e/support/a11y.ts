/**
 * Accessibility checks shared by the screen walk and the behaviour tests: form errors tied to their
 * fields, visible focus rings, and the language menu.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** Chooses a language in the header's language menu (its items are named in their own language). */
export async function chooseLanguage(page: Page, name: '中文' | 'English') {
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitemradio', { name }).click();
}

/**
 * What is wrong with the form errors on the page, one line each: every control marked
 * `aria-invalid` must point with `aria-describedby` at a shown, non-empty message, and when there are
 * any, the focus must be on the first invalid control of its form (or dialog).
 */
export async function formErrorProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : ''}${el.classList.contains('cm-content') ? '.cm-content' : ''}`;
    const invalid = [...document.querySelectorAll<HTMLElement>('[aria-invalid="true"]')].filter(
      (el) => el.getClientRects().length > 0,
    );
    for (const el of invalid) {
      const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
      const texts = ids.map((id) => document.getElementById(id)).filter((node) => node !== null);
      const shown = texts.filter((node) => node.getClientRects().length > 0 && node.textContent?.trim());
      if (shown.length === 0) problems.push(`${describe(el)} is invalid but no shown message describes it`);
    }
    if (invalid.length > 0) {
      const active = document.activeElement;
      const scope = active?.closest('form, [role=dialog], [role=alertdialog]') ?? document;
      const first = [...scope.querySelectorAll<HTMLElement>('[aria-invalid="true"]')].find((el) =>
        invalid.includes(el),
      );
      if (!active || active !== first) {
        problems.push(
          `focus is on ${active ? describe(active) : 'nothing'}, not on the first invalid field (${describe(invalid[0]!)})`,
        );
      }
    }
    return problems;
  });
}

/** sRGB relative luminance and contrast ratio (WCAG 2.x), for colours as the browser computes them. */
function contrastScript() {
  const parse = (colour: string): [number, number, number, number] => {
    const match = colour.match(/rgba?\(([^)]+)\)/);
    if (!match) {
      // oklab/oklch/color(): let the canvas convert it.
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255];
    }
    const parts = match[1]!
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
  };
  const luminance = ([r, g, b]: number[]) => {
    const channel = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
  };
  /** The opaque colour behind an element: its first ancestor (or itself) with a background. */
  const background = (el: Element | null): [number, number, number] => {
    for (let node = el; node; node = node.parentElement) {
      const [r, g, b, a] = parse(getComputedStyle(node).backgroundColor);
      if (a > 0.9) return [r, g, b];
    }
    return parse(getComputedStyle(document.documentElement).backgroundColor).slice(0, 3) as [
      number,
      number,
      number,
    ];
  };
  const ratio = (a: number[], b: number[]) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };
  return { parse, background, ratio };
}

export interface FocusRing {
  element: string;
  /** Outline width in px (0 when none). */
  width: number;
  style: string;
  /** Contrast of the outline against what surrounds the element. */
  contrast: number;
  /** The focus is in the Markdown editor's text (where Tab indents). */
  inEditor: boolean;
}

/**
 * The focus indicator of the focused element: its outline and the outline's contrast, once its
 * transitions (buttons fade their colours in) have ended.
 */
export async function focusRingOf(page: Page): Promise<FocusRing | null> {
  // One round trip: the ring is read once the focused element's transitions have finished.
  return page.evaluate(`(async () => {
    await Promise.all((document.activeElement?.getAnimations() ?? []).map((animation) => animation.finished));
    const { parse, background, ratio } = (${contrastScript.toString()})();
    const focused = document.activeElement;
    if (!focused || focused === document.body) return null;
    // CodeMirror's focus ring is on the editor around its content element.
    const el = focused.closest('.cm-editor') ?? focused;
    const style = getComputedStyle(el);
    const outline = parse(style.outlineColor);
    // With an offset the ring sits on what is around the element; without, on its edge.
    const behind = background(parseFloat(style.outlineOffset) > 0 ? el.parentElement : el);
    const label = el.tagName.toLowerCase() + (el.getAttribute('data-testid') ? '[' + el.getAttribute('data-testid') + ']' : '') +
      (el.getAttribute('aria-label') ? ' "' + el.getAttribute('aria-label') + '"' : el.textContent ? ' "' + el.textContent.trim().slice(0, 30) + '"' : '');
    return {
      element: label,
      width: style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth),
      style: style.outlineStyle,
      contrast: ratio(outline, behind),
      inEditor: focused.classList.contains('cm-content'),
    };
  })()`);
}

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails when it is not reached. */
export async function tabTo(page: Page, target: Locator, options: { back?: boolean; max?: number } = {}) {
  const key = options.back ? 'Shift+Tab' : 'Tab';
  for (let i = 0; i < (options.max ?? 80); i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) {
      return;
    }
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${target.toString()}`);
}

/** Waits until the focus is inside `scope`. */
export async function expectFocusWithin(scope: Locator) {
  await expect
    .poll(() => scope.evaluate((el) => el.contains(document.activeElement)), { message: 'focus is inside' })
    .toBe(true);
}
