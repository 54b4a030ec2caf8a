/** GET /auth/me: who a session token belongs to (docs/accounts.md "Sessions"); 401 once it has ended. */
import type { UserRole } from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';
import { VALIDATION_TIMEOUT_MS } from './verify-admin-token.ts';

export interface Me {
  id: string;
  username: string;
  role: UserRole;
  home_path: string | null;
  paths: { path: string; access: 'read' | 'write' }[];
  /** The admin requires two-factor sign-in of them and they have not set it up yet. */
  must_enrol?: boolean;
}

export function getMe(token: string): Promise<Me> {
  return api.get<Me>('/auth/me', { credential: { type: 'admin', token }, timeoutMs: VALIDATION_TIMEOUT_MS });
}
