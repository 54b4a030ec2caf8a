/** File upload page (spec §2). Placeholder until its issue lands. */
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/coming-soon.tsx';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';

export default function UploadPage() {
  const { t } = useTranslation();
  usePageTitle(t('titles.upload'));
  return <ComingSoon title={t('upload.heading')} description={t('upload.description')} />;
}
