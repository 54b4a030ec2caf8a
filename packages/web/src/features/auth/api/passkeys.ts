/**
 * Signing in with a passkey from the web app's side (docs/accounts.md "Passkeys"): the server's
 * options, the browser's ceremony (@simplewebauthn/browser), and the answer the server checks.
 * `passkeyAssertion()` is also the second factor after a password (`passkey` in the login's body).
 */
import { startAuthentication, type AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { api } from '../../../lib/api/index.ts';
import type { AdminLoginResult } from './admin-login.ts';

export interface PasskeyAssertion {
  challenge_id: string;
  response: AuthenticationResponseJSON;
}

/** Asks the browser for any of this site's passkeys; throws what the browser throws when refused. */
export async function passkeyAssertion(): Promise<PasskeyAssertion> {
  const { challenge_id, options } = await api.post<{
    challenge_id: string;
    options: Parameters<typeof startAuthentication>[0]['optionsJSON'];
  }>('/public/passkeys/login/options', undefined, { credential: null });
  return { challenge_id, response: await startAuthentication({ optionsJSON: options }) };
}

/** A sign-in with a passkey alone: answers what the password login answers. */
export async function passkeyLogin(): Promise<AdminLoginResult | null> {
  return api.post<AdminLoginResult | null>('/public/passkeys/login', await passkeyAssertion(), {
    credential: null,
  });
}
