/**
 * What to tell a person when a passkey ceremony fails in the browser (docs/accounts.md "Passkeys"):
 * they cancelled or it timed out, the authenticator already holds one for them, the page is not at
 * a domain over HTTPS (WebAuthn's secure context and RP ID), or the browser has no passkeys at all.
 * Server answers keep their own (translated) message: `null` here.
 */
import { isApiError } from '../../lib/api/index.ts';

export type PasskeyErrorKey =
  | 'auth.passkey.errors.cancelled'
  | 'auth.passkey.errors.alreadyRegistered'
  | 'auth.passkey.errors.insecure'
  | 'auth.passkey.errors.unsupported'
  | 'auth.passkey.errors.failed';

export function passkeyErrorKey(error: unknown): PasskeyErrorKey | null {
  if (isApiError(error)) return null;
  const { name, code, cause } = (error ?? {}) as { name?: string; code?: string; cause?: { name?: string } };
  const names = [name, cause?.name];
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || names.includes('InvalidStateError')) {
    return 'auth.passkey.errors.alreadyRegistered';
  }
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || names.includes('SecurityError')) {
    return 'auth.passkey.errors.insecure';
  }
  if (
    code === 'ERROR_CEREMONY_ABORTED' ||
    names.includes('NotAllowedError') ||
    names.includes('AbortError')
  ) {
    return 'auth.passkey.errors.cancelled';
  }
  if (names.includes('NotSupportedError')) return 'auth.passkey.errors.unsupported';
  return 'auth.passkey.errors.failed';
}
