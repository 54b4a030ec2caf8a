/**
 * The web app's translation files, flattened to dotted keys (the comparison itself lives beside the
 * locales in the web package).
 */
import fs from 'node:fs';
import { flattenLocale, type LocaleTree } from '../../packages/web/src/locales/locale-check.ts';

export { compareLocales } from '../../packages/web/src/locales/locale-check.ts';

const LOCALE_FILES = {
  'zh-CN': new URL('../../packages/web/src/locales/zh-CN.json', import.meta.url),
  'en-US': new URL('../../packages/web/src/locales/en-US.json', import.meta.url),
} as const;

export function loadLocale(language: keyof typeof LOCALE_FILES): Map<string, string> {
  return flattenLocale(JSON.parse(fs.readFileSync(LOCALE_FILES[language], 'utf8')) as LocaleTree);
}

/** Every key a component may render (plural forms also under their base key). */
export function knownKeys(): Set<string> {
  const keys = new Set<string>();
  for (const key of loadLocale('zh-CN').keys()) {
    keys.add(key);
    keys.add(key.replace(/_(zero|one|two|few|many|other)$/, ''));
  }
  return keys;
}
