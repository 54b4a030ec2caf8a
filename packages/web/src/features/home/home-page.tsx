/** Home (spec §2): the Markdown editor for creating a text share. Placeholder until its issue lands. */
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/coming-soon.tsx';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';

export default function HomePage() {
  const { t } = useTranslation();
  usePageTitle(t('titles.home'));
  return <ComingSoon title={t('home.heading')} description={t('home.description')} />;
}
