/** GET /test/admin-token: succeeds while the admin session token is valid. */
import { api } from '../../../lib/api/index.ts';

/** Revalidation can hold up a navigation, so it gives up sooner than ordinary calls. */
export const VALIDATION_TIMEOUT_MS = 10_000;

export async function verifyAdminToken(token: string): Promise<void> {
  await api.get<unknown>('/test/admin-token', {
    credential: { type: 'admin', token },
    timeoutMs: VALIDATION_TIMEOUT_MS,
  });
}
