/**
 * The login's second step (docs/accounts.md "Two-factor sign-in"): the password was right and the
 * person signs in with two factors, so the form asks for a code from their authenticator app (or a
 * recovery code) and sends the login again with it. Username and password stay in the login form's
 * memory only. A wrong code is said and may be typed again; "Back" returns to the password step.
 * `extra` is shown under the code form (another way to prove it is them).
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage } from '../../../lib/api/index.ts';
import { useAuthStore } from '../auth-store.ts';
import { SecondFactorField, useSecondFactorInput } from './second-factor-field.tsx';

export function TwoFactorStep({
  username,
  password,
  onBack,
  extra,
  methods,
}: {
  username: string;
  password: string;
  onBack: () => void;
  extra?: ReactNode;
  /** The ways the person has (the server's `data.methods`); without `totp`, no code is asked. */
  methods?: readonly string[];
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const noCode = methods !== undefined && !methods.includes('totp');
  const input = useSecondFactorInput(() => setError(null), noCode ? 'recovery' : 'otp');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const factor = input.take();
    if (!factor) return;
    setPending(true);
    setError(null);
    try {
      await useAuthStore.getState().adminLogin(username, password, factor);
    } catch (caught) {
      setError(errorMessage(caught));
      input.clear();
      setPending(false);
    }
  };

  return (
    <div className="space-y-4" data-testid="two-factor-step">
      <div>
        <h2 className="text-lg font-semibold text-fg">{t('auth.login.twoFactor.title')}</h2>
        <p className="mt-1 text-sm text-fg-muted">
          {noCode
            ? t('auth.login.twoFactor.passkeyDescription')
            : input.field.kind === 'otp'
              ? t('auth.login.twoFactor.description')
              : t('auth.login.twoFactor.recoveryDescription')}
        </p>
      </div>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
        <SecondFactorField {...input.field} noCode={noCode} autoFocus={!noCode} />
        {error && (
          <Alert tone="error" testId="login-error">
            {error}
          </Alert>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
          <Button type="button" variant="secondary" onClick={onBack} disabled={pending}>
            {t('auth.login.twoFactor.back')}
          </Button>
          <Button type="submit" disabled={pending}>
            {pending && <Spinner className="size-4 text-accent-fg" />}
            {pending ? t('auth.login.submitting') : t('auth.login.twoFactor.verify')}
          </Button>
        </div>
      </form>
      {extra}
    </div>
  );
}
