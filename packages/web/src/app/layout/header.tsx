/**
 * Site header: brand, main navigation, the offline badge (while offline), language switcher, theme
 * toggle and the source link.
 */
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GitHubIcon, LogoMark } from '../../components/icons.tsx';
import { PRODUCT_NAME, SOURCE_REPOSITORY_URL } from '../../lib/product.ts';
import { paths } from '../../config/paths.ts';
import { LanguageSwitcher } from './language-switcher.tsx';
import { OfflineBadgeSlot } from './offline-badge-slot.tsx';
import { DesktopNav, MobileNav } from './main-nav.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

export function Header() {
  const { t } = useTranslation();
  // A new page starts with the mobile menu closed, however it was reached (link, logo, back button).
  const { pathname } = useLocation();
  return (
    <header className="relative z-30 border-b border-border bg-surface/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4 sm:gap-4 sm:px-6">
        <Link
          to={paths.home.getHref()}
          className="flex shrink-0 items-center gap-2 rounded-md font-semibold text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          aria-label={t('nav.homeLink', { name: PRODUCT_NAME })}
        >
          <LogoMark />
          <span className="text-lg tracking-tight">{PRODUCT_NAME}</span>
        </Link>
        <div className="flex-1 md:flex-none">
          <DesktopNav />
        </div>
        <div className="group/actions flex items-center gap-0.5 md:ms-auto">
          <OfflineBadgeSlot />
          <LanguageSwitcher />
          <ThemeToggle />
          <a
            href={SOURCE_REPOSITORY_URL}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('header.sourceCode')}
            title={t('header.sourceCode')}
            className="inline-flex size-9 items-center justify-center rounded-md text-fg hover:bg-surface-sunken focus-visible:outline-2 focus-visible:outline-ring"
          >
            <GitHubIcon />
          </a>
          <MobileNav key={pathname} />
        </div>
      </div>
    </header>
  );
}
