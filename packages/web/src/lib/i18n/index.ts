/**
 * The i18next instance of the app. Each locale is its own chunk and only the UI language is loaded
 * up front, starting as soon as this module runs; `i18nReady` resolves once its texts are in, and
 * the app renders only then, so the first render is already in the right language. The other
 * language is loaded when the user picks it, and the UI switches only once it is there (never
 * showing keys meanwhile). `<html lang>` follows the current language.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  KEYS_MODE,
  detectLanguage,
  isKeysModeRequested,
  storeLanguage,
  toLanguage,
  type Language,
} from './language.ts';

export { LANGUAGES, type Language } from './language.ts';

const NAMESPACE = 'translation';

/** One chunk per locale; the bundler splits each JSON file out of the main bundle. */
const LOCALES: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  'zh-CN': () => import('../../locales/zh-CN.json'),
  'en-US': () => import('../../locales/en-US.json'),
};

const loading = new Map<Language, Promise<void>>();

/** Loads a language's texts into i18next once; a failed load may be tried again later. */
function loadLanguage(language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, NAMESPACE)) return Promise.resolve();
  let promise = loading.get(language);
  if (!promise) {
    promise = LOCALES[language]().then(
      ({ default: translation }) => {
        i18n.addResourceBundle(language, NAMESPACE, translation);
      },
      (error: unknown) => {
        loading.delete(language);
        throw error;
      },
    );
    loading.set(language, promise);
  }
  return promise;
}

let uiLanguage: Language = detectLanguage();

// Texts are added by loadLanguage (there is no i18next backend).
void i18n.use(initReactI18next).init({
  resources: {},
  lng: isKeysModeRequested() ? KEYS_MODE : uiLanguage,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: ['zh-CN', 'en-US', KEYS_MODE],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Resolves when the UI language's texts are loaded (or could not be: see below). */
export const i18nReady: Promise<void> = loadLanguage(uiLanguage).catch(() => {
  // The texts could not be fetched (offline, or a deploy replaced the files): the app still starts,
  // and its screens then fail to load as well and offer a retry.
});

function applyDocumentLanguage(): void {
  if (typeof document !== 'undefined') document.documentElement.lang = uiLanguage;
}
applyDocumentLanguage();

i18n.on('languageChanged', (lng) => {
  const language = toLanguage(lng);
  if (language) uiLanguage = language;
  applyDocumentLanguage();
});

/** The current UI language (also what the API client sends as Accept-Language). */
export function getLanguage(): Language {
  return uiLanguage;
}

/**
 * Remembers the choice at once (a reload right after picking keeps it), then switches the UI once
 * the language's texts are loaded; when that fails the promise rejects and this page stays in the
 * current language.
 */
export async function changeLanguage(language: Language): Promise<void> {
  storeLanguage(language);
  await loadLanguage(language);
  uiLanguage = language;
  await i18n.changeLanguage(isKeysModeRequested() ? KEYS_MODE : language);
  applyDocumentLanguage();
}

export { i18n };
