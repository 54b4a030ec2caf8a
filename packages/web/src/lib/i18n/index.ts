/**
 * The i18next instance of the app. Both locales are bundled (they are small), so initialisation is
 * synchronous and the first render is already in the right language; `<html lang>` follows the
 * current language.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import zhCN from '../../locales/zh-CN.json';
import enUS from '../../locales/en-US.json';
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

let uiLanguage: Language = detectLanguage();

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  lng: isKeysModeRequested() ? KEYS_MODE : uiLanguage,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: ['zh-CN', 'en-US', KEYS_MODE],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
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

/** Switches the UI language and remembers the choice. */
export async function changeLanguage(language: Language): Promise<void> {
  storeLanguage(language);
  uiLanguage = language;
  await i18n.changeLanguage(isKeysModeRequested() ? KEYS_MODE : language);
  applyDocumentLanguage();
}

export { i18n };
