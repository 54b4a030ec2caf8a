/** Preview of a shared file, /file/:slug (spec §2). Placeholder until its issue lands. */
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/coming-soon.tsx';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';

export default function FileViewPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  usePageTitle(t('titles.file'));
  return (
    <ComingSoon title={t('fileView.heading')} description={t('fileView.description')}>
      <p className="mt-4 text-sm text-fg-muted">
        {t('fileView.slug')} <code className="font-mono text-fg">{slug}</code>
      </p>
    </ComingSoon>
  );
}
