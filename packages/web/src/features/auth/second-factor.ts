/**
 * The second factor a person types (docs/accounts.md "Two-factor sign-in"): a 6-digit code from
 * their authenticator app, or one of their recovery codes. The server checks it; this only says
 * what is plainly not one (so no guess is spent on a typo) and builds the body field.
 */
import type { SecondFactor } from './api/admin-login.ts';

export type SecondFactorKind = 'otp' | 'recovery';

/** What the person typed, as the server takes it: spaces dropped from a code, a recovery code trimmed. */
export function toSecondFactor(kind: SecondFactorKind, typed: string): SecondFactor {
  return kind === 'otp' ? { otp: typed.replace(/\s/g, '') } : { recovery_code: typed.trim() };
}

/** The translation key of what is wrong with what was typed, or null when it may be sent. */
export function secondFactorProblem(
  kind: SecondFactorKind,
  typed: string,
): 'auth.login.twoFactor.codeInvalid' | 'auth.login.twoFactor.recoveryRequired' | null {
  if (kind === 'otp')
    return /^\d{6}$/.test(typed.replace(/\s/g, '')) ? null : 'auth.login.twoFactor.codeInvalid';
  return typed.trim() === '' ? 'auth.login.twoFactor.recoveryRequired' : null;
}
