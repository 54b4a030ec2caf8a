/**
 * POST /admin/login: exchanges username and password for an admin session token. A person with
 * two-factor sign-in also sends a current code (`otp`) or a recovery code (docs/accounts.md
 * "Two-factor sign-in"); without one the server answers 401 TWO_FACTOR_REQUIRED.
 */
import { api } from '../../../lib/api/index.ts';

export interface AdminLoginResult {
  username?: string;
  /** `admin` or `member` (docs/accounts.md); absent from a CloudPaste backend, whose logins are all admins. */
  role?: 'admin' | 'member';
  token?: string;
  expiresAt?: string;
  /** The admin requires two-factor sign-in of this person, who has not set it up: the session can only do that. */
  two_factor_setup_required?: boolean;
}

/** The second factor a sign-in brings: a code from the authenticator app, or a recovery code. */
export interface SecondFactor {
  otp?: string;
  recovery_code?: string;
  /** A passkey's answer to the server's challenge (api/passkeys.ts `passkeyAssertion`). */
  passkey?: { challenge_id: string; response: unknown };
}

export function adminLogin(
  username: string,
  password: string,
  factor: SecondFactor = {},
): Promise<AdminLoginResult | null> {
  return api.post<AdminLoginResult | null>(
    '/admin/login',
    { username, password, ...factor },
    { credential: null },
  );
}
