/** POST /admin/logout: revokes the given admin session token on the server. */
import { api } from '../../../lib/api/index.ts';

export async function adminLogout(token: string): Promise<void> {
  await api.post<unknown>('/admin/logout', undefined, {
    credential: { type: 'admin', token },
    handleUnauthorized: false,
    timeoutMs: 10_000,
  });
}
