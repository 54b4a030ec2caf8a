/** Button cycling the theme auto → light → dark → auto; its label says the current and next mode. */
import { useTranslation } from 'react-i18next';
import { AutoThemeIcon, MoonIcon, SunIcon } from '../../components/icons.tsx';
import { nextThemeMode, useThemeStore, type ThemeMode } from '../../lib/theme/theme-store.ts';

const icons: Record<ThemeMode, typeof SunIcon> = { auto: AutoThemeIcon, light: SunIcon, dark: MoonIcon };

export function ThemeToggle() {
  const { t } = useTranslation();
  const mode = useThemeStore((state) => state.mode);
  const cycle = useThemeStore((state) => state.cycle);
  const modeName = (value: ThemeMode) => t(`header.theme.${value}`);
  const label = t('header.theme.toggle', { current: modeName(mode), next: modeName(nextThemeMode(mode)) });
  const Icon = icons[mode];
  return (
    <button
      type="button"
      onClick={cycle}
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
      data-mode={mode}
      className="inline-flex size-9 items-center justify-center rounded-md text-fg hover:bg-surface-sunken focus-visible:outline-2 focus-visible:outline-ring"
    >
      <Icon className="size-5" />
    </button>
  );
}
