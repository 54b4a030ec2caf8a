/**
 * The "Two-factor sign-in" setting (docs/accounts.md "Two-factor sign-in"): who must sign in with a
 * second factor — nobody, admins, or everyone — saved with PUT /admin/system-settings
 * (`require_two_factor`). Someone it covers who has none yet can only set it up after signing in.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Card } from '../../../../components/card.tsx';
import { SelectField } from '../../../../components/form-field.tsx';
import { LoadError } from '../../../../components/list-states.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { useAuthStore } from '../../../auth/index.ts';
import { useTwoFactorStatus } from '../../account/api/two-factor-api.ts';
import { useSystemSettings, useUpdateSystemSettings } from '../api/system-settings.ts';
import { SettingsFormEnd } from './form-end.tsx';
import { announceSectionSaved, useSectionErrors } from '../section-errors.ts';

export function TwoFactorPolicySection() {
  const { t } = useTranslation();
  const settings = useSystemSettings();
  return (
    <Card title={t('admin.settings.twoFactor.title')} description={t('admin.settings.twoFactor.description')}>
      {settings.isPending ? (
        <PageLoading />
      ) : settings.isError ? (
        <LoadError error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <PolicyForm stored={settings.data.requireTwoFactor} />
      )}
    </Card>
  );
}

function PolicyForm({ stored }: { stored: TwoFactorPolicy }) {
  const { t } = useTranslation();
  const [policy, setPolicy] = useState(stored);
  const [serverError, setServerError] = useSectionErrors<string | null>(null);
  const update = useUpdateSystemSettings();
  // An admin without a second factor of their own is covered by `admins` and `everyone`.
  const own = useTwoFactorStatus();
  const coversMe = policy !== 'off' && own.data?.totp === false;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    if (policy === stored) {
      showToast(t('admin.settings.twoFactor.unchanged'), 'info');
      return;
    }
    // Not `mutate`'s callbacks: the page's reads after the save may fail (403, the rule now covers
    // this admin), which unmounts this form before they would run.
    update.mutateAsync({ require_two_factor: policy }).then(
      (saved) => {
        setPolicy(saved.requireTwoFactor);
        announceSectionSaved();
        showToast(t('admin.settings.twoFactor.saved'), 'success');
        // The rule covers this admin too: without a second factor they set it up now.
        void useAuthStore.getState().checkEnrolment();
      },
      (error: unknown) => setServerError(errorMessage(error)),
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-xl space-y-5" data-testid="two-factor-settings">
      <SelectField
        label={t('admin.settings.twoFactor.require')}
        name="requireTwoFactor"
        value={policy}
        hint={t('admin.settings.twoFactor.requireHint')}
        onChange={(event) => {
          setPolicy(event.target.value as TwoFactorPolicy);
          setServerError(null);
        }}
        className="max-w-60"
      >
        {TWO_FACTOR_POLICIES.map((value) => (
          <option key={value} value={value}>
            {t(`admin.settings.twoFactor.policies.${value}`)}
          </option>
        ))}
      </SelectField>
      {coversMe && (
        <Alert tone="warning" testId="two-factor-settings-covers-you">
          {t('admin.settings.twoFactor.coversYou')}
        </Alert>
      )}
      <SettingsFormEnd
        error={serverError}
        errorTestId="two-factor-settings-error"
        pending={update.isPending}
        label={t('admin.settings.twoFactor.save')}
      />
    </form>
  );
}
