/**
 * The i18next instance of the app. The texts are split into parts (`locale-sections.ts`): the core
 * part of the UI language starts loading as soon as this module runs, and `i18nReady` resolves
 * once it is in, so the first render is already in the right language. A lazy screen loads the
 * sections it uses together with its code (`withSections`), so it never renders before its texts
 * are there. Another language is loaded when the user picks it, with every section loaded so far,
 * and the UI switches only once they are all there (never showing keys meanwhile). `<html lang>`
 * follows the current language.
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
import type { LocalePart, Section } from './locale-sections.ts';

export { LANGUAGES, type Language } from './language.ts';
export type { Section } from './locale-sections.ts';

const NAMESPACE = 'translation';

type LocaleModule = Promise<{ default: Record<string, unknown> }>;

/** One chunk per part of each locale (see `locale-sections.ts` and the plugin in vite.config.ts). */
const PARTS: Record<Language, Record<LocalePart, () => LocaleModule>> = {
  'zh-CN': {
    core: () => import('../../locales/zh-CN.json?section=core&locale-section'),
    home: () => import('../../locales/zh-CN.json?section=home&locale-section'),
    upload: () => import('../../locales/zh-CN.json?section=upload&locale-section'),
    fileView: () => import('../../locales/zh-CN.json?section=fileView&locale-section'),
    explorer: () => import('../../locales/zh-CN.json?section=explorer&locale-section'),
    admin: () => import('../../locales/zh-CN.json?section=admin&locale-section'),
    envSwitcher: () => import('../../locales/zh-CN.json?section=envSwitcher&locale-section'),
    pastes: () => import('../../locales/zh-CN.json?section=pastes&locale-section'),
    pwa: () => import('../../locales/zh-CN.json?section=pwa&locale-section'),
    uploadRequests: () => import('../../locales/zh-CN.json?section=uploadRequests&locale-section'),
  },
  'en-US': {
    core: () => import('../../locales/en-US.json?section=core&locale-section'),
    home: () => import('../../locales/en-US.json?section=home&locale-section'),
    upload: () => import('../../locales/en-US.json?section=upload&locale-section'),
    fileView: () => import('../../locales/en-US.json?section=fileView&locale-section'),
    explorer: () => import('../../locales/en-US.json?section=explorer&locale-section'),
    admin: () => import('../../locales/en-US.json?section=admin&locale-section'),
    envSwitcher: () => import('../../locales/en-US.json?section=envSwitcher&locale-section'),
    pastes: () => import('../../locales/en-US.json?section=pastes&locale-section'),
    pwa: () => import('../../locales/en-US.json?section=pwa&locale-section'),
    uploadRequests: () => import('../../locales/en-US.json?section=uploadRequests&locale-section'),
  },
};

/** Loads (or is loading) a part of a language; a failed load is forgotten, to be tried again. */
const loading = new Map<string, Promise<void>>();

function loadPart(language: Language, part: LocalePart): Promise<void> {
  const id = `${language}/${part}`;
  let promise = loading.get(id);
  if (!promise) {
    promise = PARTS[language][part]().then(
      ({ default: texts }) => {
        // Deep merge: a section adds its branches to the same namespace as the core texts.
        i18n.addResourceBundle(language, NAMESPACE, texts, true, true);
      },
      (error: unknown) => {
        loading.delete(id);
        throw error;
      },
    );
    loading.set(id, promise);
  }
  return promise;
}

/** The sections the screens shown so far asked for (a language switch loads them first). */
const wantedSections = new Set<Section>();

/** Loads the core texts and every wanted section of a language, including any asked for meanwhile. */
async function loadLanguage(language: Language): Promise<void> {
  for (;;) {
    const parts: LocalePart[] = ['core', ...wantedSections];
    await Promise.all(parts.map((part) => loadPart(language, part)));
    if (parts.length === wantedSections.size + 1) return;
  }
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

/** Resolves when the UI language's core texts are loaded (or could not be: see below). */
export const i18nReady: Promise<void> = loadPart(uiLanguage, 'core').catch(() => {
  // The texts could not be fetched (offline, or a deploy replaced the files): the app still starts,
  // and its screens (which try the core texts again) then fail to load as well and offer a retry.
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

/**
 * Resolves with `module` once the UI language's core texts and `sections` are loaded too (rejects
 * when any fails; core texts that failed at start are tried again). For a lazy screen:
 * `lazy(() => withSections(import('./page.tsx'), ['home']))`.
 */
export async function withSections<T>(module: Promise<T>, sections: readonly Section[]): Promise<T> {
  for (const section of sections) wantedSections.add(section);
  const parts: LocalePart[] = ['core', ...sections];
  const [loaded] = await Promise.all([module, ...parts.map((part) => loadPart(uiLanguage, part))]);
  return loaded;
}

/** The current UI language (also what the API client sends as X-Cubby-Lang). */
export function getLanguage(): Language {
  return uiLanguage;
}

/**
 * Remembers the choice at once (a reload right after picking keeps it), then switches the UI once
 * the language's texts are loaded; when that fails the previous choice is put back, the promise
 * rejects and the page stays in the current language.
 */
export async function changeLanguage(language: Language): Promise<void> {
  const undo = storeLanguage(language);
  try {
    await loadLanguage(language);
  } catch (error) {
    undo();
    throw error;
  }
  uiLanguage = language;
  await i18n.changeLanguage(isKeysModeRequested() ? KEYS_MODE : language);
  applyDocumentLanguage();
}

export { i18n };
