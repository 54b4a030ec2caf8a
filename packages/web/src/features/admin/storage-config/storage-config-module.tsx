/** Admin module "storage-config" (spec §2). Placeholder until its issue lands. */
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';

export default function StorageConfigModule() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      title={t('admin.modules.storageConfig')}
      description={t('admin.descriptions.storageConfig')}
    />
  );
}
