/**
 * Admin module "settings" (spec §2, §3): the admin account section works now; the system
 * settings (upload size, WebDAV upload mode) arrive with a later issue.
 */
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../../components/coming-soon.tsx';
import { AccountSection } from './account-section.tsx';

export default function SettingsModule() {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-fg">{t('admin.modules.settings')}</h1>
      <AccountSection />
      <ComingSoon as="h2" title={t('settings.system.title')} description={t('settings.system.description')} />
    </div>
  );
}
