/** Admin module "text-management" (spec §2). Placeholder until its issue lands. */
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';

export default function TextManagementModule() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      title={t('admin.modules.textManagement')}
      description={t('admin.descriptions.textManagement')}
    />
  );
}
