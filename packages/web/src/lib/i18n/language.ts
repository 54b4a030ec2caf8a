/**
 * Which UI language to use (docs/product.md §1): localStorage `language`, else the browser language (Chinese
 * when it starts with "zh", otherwise English), falling back to Chinese. Also holds the test-only
 * "cimode" switch: with localStorage `language` = `cimode` AND `?i18n-test` in the URL, i18next
 * returns keys instead of text, so a browser test can prove every visible string is a key.
 */

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
export const LANGUAGE_STORAGE_KEY = 'language';
/** i18next's built-in language that returns the key itself. */
export const KEYS_MODE = 'cimode';
const KEYS_MODE_QUERY = 'i18n-test';

/** Maps any language tag to a supported UI language, or null when it is not one we speak. */
export function toLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const lower = tag.toLowerCase();
  if (lower.startsWith('zh')) return 'zh-CN';
  if (lower.startsWith('en')) return 'en-US';
  return null;
}

function readStored(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** True only in the test-only key mode (needs both the stored value and the URL flag). */
export function isKeysModeRequested(): boolean {
  if (typeof window === 'undefined') return false;
  return readStored() === KEYS_MODE && new URLSearchParams(window.location.search).has(KEYS_MODE_QUERY);
}

/** The language to start with (see the module comment for the order of sources). */
export function detectLanguage(): Language {
  const stored = toLanguage(readStored());
  if (stored) return stored;
  const browser = typeof navigator === 'undefined' ? undefined : navigator.language;
  if (!browser) return DEFAULT_LANGUAGE;
  return browser.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
}

/**
 * Remembers a choice; returns what puts the previous stored value back (for a switch that failed).
 */
export function storeLanguage(language: Language): () => void {
  const previous = readStored();
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode or a full quota: the choice then lasts only for this page.
  }
  return () => {
    try {
      if (previous === null) localStorage.removeItem(LANGUAGE_STORAGE_KEY);
      else localStorage.setItem(LANGUAGE_STORAGE_KEY, previous);
    } catch {
      // As above.
    }
  };
}
