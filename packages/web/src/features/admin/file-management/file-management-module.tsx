/** Admin module "file-management" (spec §2). Placeholder until its issue lands. */
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';

export default function FileManagementModule() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      title={t('admin.modules.fileManagement')}
      description={t('admin.descriptions.fileManagement')}
    />
  );
}
