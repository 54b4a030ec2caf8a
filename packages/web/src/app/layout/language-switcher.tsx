/**
 * Chooses the interface language (中文 / English); the choice is remembered. A native select: it
 * is keyboard and screen-reader friendly everywhere, opens the system picker on phones, and costs
 * no JavaScript on every page.
 */
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon, GlobeIcon } from '../../components/icons.tsx';
import { showToast } from '../../components/toast/toast-store.ts';
import { changeLanguage, getLanguage, LANGUAGES, type Language } from '../../lib/i18n/index.ts';

/** Each language is named in itself, so it can be found whatever the current language is. */
const LANGUAGE_NAMES: Record<Language, string> = { 'zh-CN': '中文', 'en-US': 'English' };

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  // Reading i18n.language subscribes this component to changes; getLanguage() is the UI language
  // (it differs from i18n.language only in the test-only key mode).
  void i18n.language;
  const current = getLanguage();
  // The chosen language's texts load first; the select shows the current one until they are there.
  const choose = (language: Language) =>
    changeLanguage(language).catch(() => showToast(t('errors.network'), 'error'));
  return (
    <div className="relative inline-flex h-9 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-fg hover:bg-surface-sunken focus-within:outline-2 focus-within:outline-ring">
      <GlobeIcon className="size-4.5 shrink-0" />
      {/* Under 360 px only the globe shows, so the header fits a 320 px phone (the select is named). */}
      <span aria-hidden="true" lang={current} className="max-[359px]:hidden">
        {LANGUAGE_NAMES[current]}
      </span>
      <ChevronDownIcon className="size-3.5 shrink-0 text-fg-muted" />
      {/* The real control: transparent on top, so the button-like look above stays compact. */}
      <select
        value={current}
        onChange={(event) => void choose(event.target.value as Language)}
        aria-label={t('header.language')}
        data-testid="language-switcher"
        className="absolute inset-0 size-full cursor-pointer appearance-none opacity-0"
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
