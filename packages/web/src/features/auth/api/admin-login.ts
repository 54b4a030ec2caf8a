/** POST /admin/login: exchanges username and password for an admin session token. */
import { api } from '../../../lib/api/index.ts';

export interface AdminLoginResult {
  username?: string;
  token?: string;
  expiresAt?: string;
}

export function adminLogin(username: string, password: string): Promise<AdminLoginResult | null> {
  return api.post<AdminLoginResult | null>('/admin/login', { username, password }, { credential: null });
}
