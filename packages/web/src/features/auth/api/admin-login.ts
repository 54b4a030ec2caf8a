/** POST /admin/login: exchanges username and password for an admin session token. */
import { api } from '../../../lib/api/index.ts';

export interface AdminLoginResult {
  username?: string;
  /** `admin` or `member` (docs/accounts.md); absent from a CloudPaste backend, whose logins are all admins. */
  role?: 'admin' | 'member';
  token?: string;
  expiresAt?: string;
}

export function adminLogin(username: string, password: string): Promise<AdminLoginResult | null> {
  return api.post<AdminLoginResult | null>('/admin/login', { username, password }, { credential: null });
}
