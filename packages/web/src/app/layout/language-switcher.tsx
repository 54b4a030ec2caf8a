/**
 * Chooses the interface language (中文 / English); the choice is remembered. A menu button (the
 * WAI-ARIA pattern, see MenuButton): the button is named "Language: English" and shows the globe
 * and the current language; each language is named in itself.
 */
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon, GlobeIcon } from '../../components/icons.tsx';
import { MenuButton } from '../../components/menu-button.tsx';
import { showToast } from '../../components/toast/toast-store.ts';
import { changeLanguage, getLanguage, LANGUAGES, type Language } from '../../lib/i18n/index.ts';

/** Each language is named in itself, so it can be found whatever the current language is. */
const LANGUAGE_NAMES: Record<Language, string> = { 'zh-CN': '中文', 'en-US': 'English' };
const CHOICES = LANGUAGES.map((language) => ({
  value: language,
  label: LANGUAGE_NAMES[language],
  lang: language,
}));

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  // Reading i18n.language subscribes this component to changes; getLanguage() is the UI language
  // (it differs from i18n.language only in the test-only key mode).
  void i18n.language;
  const current = getLanguage();
  // The chosen language's texts load first; the button shows the current one until they are there.
  const choose = (language: Language) =>
    void changeLanguage(language).catch(() => showToast(t('errors.network'), 'error'));
  return (
    <MenuButton
      choices={CHOICES}
      value={current}
      onChoose={choose}
      menuLabel={t('header.language')}
      testId="language-switcher"
      buttonClassName="inline-flex h-9 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-fg hover:bg-surface-sunken focus-visible:outline-2 focus-visible:outline-ring"
    >
      <GlobeIcon className="size-4.5 shrink-0" />
      <span className="sr-only">{t('header.languageCurrent', { language: LANGUAGE_NAMES[current] })}</span>
      {/*
        Under 360 px only the globe shows, so the header fits a 320 px phone; on a phone the
        offline badge takes the name's room too (header.tsx marks the group).
      */}
      <span
        aria-hidden="true"
        lang={current}
        className="whitespace-nowrap max-[359px]:hidden max-sm:group-has-[[data-testid=offline-badge]]/actions:hidden"
      >
        {LANGUAGE_NAMES[current]}
      </span>
      <ChevronDownIcon className="size-3.5 shrink-0 text-fg-muted" />
    </MenuButton>
  );
}
