/** GET /test/admin-token: succeeds while the admin session token is valid, answering the account name. */
import { api } from '../../../lib/api/index.ts';

/** Revalidation can hold up a navigation, so it gives up sooner than ordinary calls. */
export const VALIDATION_TIMEOUT_MS = 10_000;

/** The account name, or null when the server does not say it (a CloudPaste backend). */
export async function verifyAdminToken(token: string): Promise<{ username: string | null }> {
  const data = await api.get<{ username?: unknown } | null>('/test/admin-token', {
    credential: { type: 'admin', token },
    timeoutMs: VALIDATION_TIMEOUT_MS,
  });
  const username = data?.username;
  return { username: typeof username === 'string' && username !== '' ? username : null };
}
