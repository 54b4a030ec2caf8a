/**
 * Admin module "settings" (docs/product.md §2, §3): the admin account (username, password) and the system's
 * upload settings (largest upload, URL-upload allowlist, WebDAV upload mode) and how long the audit
 * log keeps its entries, and who must sign in with two factors.
 */
import { useTranslation } from 'react-i18next';
import { AccountSection } from './account-section.tsx';
import { AuditSection } from './audit-section.tsx';
import { GuestSection } from './guest-section.tsx';
import { SharePolicySection } from './share-policy-section.tsx';
import { TwoFactorPolicySection } from './two-factor-policy-section.tsx';
import { UploadsSection } from './uploads-section.tsx';

export default function SettingsModule() {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-fg">{t('admin.modules.settings')}</h1>
      <AccountSection />
      <UploadsSection />
      <SharePolicySection />
      <GuestSection />
      <TwoFactorPolicySection />
      <AuditSection />
    </div>
  );
}
