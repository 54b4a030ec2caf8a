import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WebAuthnError } from '@simplewebauthn/browser';
import { ApiError } from '../../lib/api/index.ts';
import { passkeyErrorKey } from './passkey-errors.ts';

const domError = (name: string) => Object.assign(new Error(name), { name });
const webAuthnError = (code: ConstructorParameters<typeof WebAuthnError>[0]['code'], cause: string) =>
  new WebAuthnError({ message: code, code, cause: domError(cause), name: cause });

describe('passkeyErrorKey', () => {
  it('tells a cancelled or timed-out prompt apart from a refusal', () => {
    assert.equal(
      passkeyErrorKey(webAuthnError('ERROR_CEREMONY_ABORTED', 'AbortError')),
      'auth.passkey.errors.cancelled',
    );
    assert.equal(passkeyErrorKey(domError('NotAllowedError')), 'auth.passkey.errors.cancelled');
    assert.equal(
      passkeyErrorKey(webAuthnError('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', 'InvalidStateError')),
      'auth.passkey.errors.alreadyRegistered',
    );
    assert.equal(
      passkeyErrorKey(webAuthnError('ERROR_INVALID_DOMAIN', 'SecurityError')),
      'auth.passkey.errors.insecure',
    );
    assert.equal(passkeyErrorKey(domError('NotSupportedError')), 'auth.passkey.errors.unsupported');
    assert.equal(passkeyErrorKey(new Error('boom')), 'auth.passkey.errors.failed');
  });

  it('leaves the server’s own message to the server', () => {
    assert.equal(passkeyErrorKey(new ApiError('Nope', { status: 401, code: 'UNAUTHENTICATED' })), null);
  });
});
