/** Admin module "mount-management" (spec §2). Placeholder until its issue lands. */
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';

export default function MountManagementModule() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      title={t('admin.modules.mountManagement')}
      description={t('admin.descriptions.mountManagement')}
    />
  );
}
