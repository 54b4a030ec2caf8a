/** View of a shared text, /paste/:slug (spec §2). Placeholder until its issue lands. */
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/coming-soon.tsx';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';

export default function PasteViewPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  usePageTitle(t('titles.paste'));
  return (
    <ComingSoon title={t('pasteView.heading')} description={t('pasteView.description')}>
      <p className="mt-4 text-sm text-fg-muted">
        {t('pasteView.slug')} <code className="font-mono text-fg">{slug}</code>
      </p>
    </ComingSoon>
  );
}
