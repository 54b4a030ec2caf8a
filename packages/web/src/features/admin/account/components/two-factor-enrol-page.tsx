/**
 * What a person sees of the admin area while the admin requires two-factor sign-in of them and they
 * have not set it up (docs/accounts.md "Two-factor sign-in"): why, and only the set-up. The server
 * refuses everything else to such a session (403) until then; once it is on (and they saw their
 * recovery codes) the admin area opens. A stale mark (already on, or no longer required) is cleared
 * when the status first loads.
 */
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../../components/alert.tsx';
import { useAuthStore } from '../../../auth/index.ts';
import { SignedInAs } from '../../components/signed-in-as.tsx';
import { twoFactorStatusQueryOptions } from '../api/two-factor-api.ts';
import { TwoFactorSection } from './two-factor-section.tsx';

export default function TwoFactorEnrolPage() {
  const { t } = useTranslation();
  // Read afresh: a status cached before the admin's rule changed would wrongly clear the mark.
  const status = useQuery({ ...twoFactorStatusQueryOptions(), refetchOnMount: 'always' });
  const checked = useRef(false);
  const enrolled = () => useAuthStore.getState().twoFactorEnrolled();

  useEffect(() => {
    if (checked.current || !status.isFetchedAfterMount || !status.data) return;
    checked.current = true;
    if (status.data.totp || !status.data.required) useAuthStore.getState().twoFactorEnrolled();
  }, [status.data, status.isFetchedAfterMount]);

  return (
    <div className="mx-auto max-w-2xl space-y-6" data-testid="two-factor-enrol">
      <h1 className="text-2xl font-semibold tracking-tight text-fg">{t('accounts.twoFactor.enrol.title')}</h1>
      <div className="rounded-xl border border-border bg-surface p-3 shadow-card">
        <SignedInAs />
      </div>
      <Alert tone="info">{t('accounts.twoFactor.enrol.why')}</Alert>
      <TwoFactorSection title={t('accounts.twoFactor.enrol.section')} onEnabled={enrolled} />
    </div>
  );
}
