/**
 * Site footer: copyright with the current year, the link to the public pastes while the admin has
 * that page on, and the tools given to it (the environment
 * switcher's button: in the page's flow, so it never covers a control as a floating button did).
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths.ts';
import { PRODUCT_NAME } from '../../lib/product.ts';
import { usePublicPastesEnabled } from '../../features/public-pastes/index.ts';

export function Footer({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  const publicPastes = usePublicPastesEnabled();
  return (
    <footer className="border-t border-border bg-surface">
      <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-5 sm:gap-4 text-sm text-fg-muted sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p data-testid="copyright">{t('footer.copyright', { year, name: PRODUCT_NAME })}</p>
        {publicPastes && (
          <Link
            to={paths.publicPastes.getHref()}
            className="text-accent-text underline underline-offset-2"
            data-testid="public-pastes-link"
          >
            {t('footer.publicPastes')}
          </Link>
        )}
        <p className="sm:ms-auto">{t('footer.tagline')}</p>
        {children}
      </div>
    </footer>
  );
}
