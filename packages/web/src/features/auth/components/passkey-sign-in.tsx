/**
 * "Sign in with a passkey" under the login form (docs/accounts.md "Passkeys"): the browser asks for
 * any of this site's passkeys (with a fingerprint, face or PIN — two factors in one), and the
 * session it answers is kept as a password login's. Not shown where the browser has no WebAuthn.
 * With `after` (the login's second step), the passkey is the second factor after that password.
 */
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { KeyIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api/index.ts';
import { passkeyAssertion, passkeyLogin } from '../api/passkeys.ts';
import { useAuthStore } from '../auth-store.ts';
import { passkeyErrorKey } from '../passkey-errors.ts';

export function PasskeySignIn({ after }: { after?: { username: string; password: string } }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!browserSupportsWebAuthn()) return null;

  const signIn = async () => {
    setPending(true);
    setError(null);
    try {
      if (after) {
        const passkey = await passkeyAssertion();
        await useAuthStore.getState().adminLogin(after.username, after.password, { passkey });
        return;
      }
      const result = await passkeyLogin();
      if (!result?.token) {
        throw new ApiError(t('auth.tokenMissing'), { status: 200, code: 'BAD_RESPONSE' });
      }
      await useAuthStore.getState().sessionLogin(result.token, result.username ?? '', result.role);
    } catch (caught) {
      const key = passkeyErrorKey(caught);
      setError(key ? t(key) : (caught as Error).message);
      setPending(false);
    }
  };

  return (
    <div className="mt-4 space-y-3" data-testid="passkey-sign-in">
      <Button variant="secondary" className="w-full" disabled={pending} onClick={() => void signIn()}>
        {pending ? <Spinner className="size-4" /> : <KeyIcon className="size-4" />}
        {t('auth.passkey.signIn')}
      </Button>
      {error && (
        <Alert tone="error" testId="passkey-error">
          {error}
        </Alert>
      )}
    </div>
  );
}
