/** Admin module "dashboard" (spec §2). Placeholder until its issue lands. */
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';

export default function DashboardModule() {
  const { t } = useTranslation();
  return <ComingSoon title={t('admin.modules.dashboard')} description={t('admin.descriptions.dashboard')} />;
}
