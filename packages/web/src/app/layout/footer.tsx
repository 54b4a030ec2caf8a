/** Site footer: copyright with the current year. */
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '../../lib/product.ts';

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-border bg-surface">
      <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-5 text-sm text-fg-muted sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p data-testid="copyright">{t('footer.copyright', { year, name: PRODUCT_NAME })}</p>
        <p>{t('footer.tagline')}</p>
      </div>
    </footer>
  );
}
