/**
 * Admin module "My account" (docs/accounts.md), for every person, admin or member: the password
 * (and name), two-factor sign-in, passkeys, the sessions, and the app passwords for WebDAV.
 */
import { useTranslation } from 'react-i18next';
import { AccountSection } from '../../settings/components/account-section.tsx';
import { AppPasswordsSection } from './app-passwords-section.tsx';
import { PasskeysSection } from './passkeys-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { TwoFactorSection } from './two-factor-section.tsx';

export default function AccountModule() {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-fg">{t('admin.modules.account')}</h1>
      <AccountSection title={t('accounts.signIn')} />
      <TwoFactorSection />
      <PasskeysSection />
      <SessionsSection />
      <AppPasswordsSection />
    </div>
  );
}
