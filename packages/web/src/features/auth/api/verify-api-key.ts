/** GET /test/api-key: checks an API key and returns its permissions and scope. */
import type { Permissions } from '@cubby/shared';
import { apiRequest, type RequestOptions } from '../../../lib/api/index.ts';
import { VALIDATION_TIMEOUT_MS } from './verify-admin-token.ts';

export interface ApiKeyCheck {
  name?: string;
  basic_path?: string;
  permissions?: Partial<Permissions>;
  key_info?: { id: string; name: string; basic_path: string };
}

/**
 * Returns the whole envelope: a key counts as verified only when `success` is true and `data` is
 * present (docs/product.md §5).
 */
export function verifyApiKey(key: string, options: Pick<RequestOptions, 'handleUnauthorized'> = {}) {
  return apiRequest<ApiKeyCheck | null>('/test/api-key', {
    credential: { type: 'apikey', key },
    timeoutMs: VALIDATION_TIMEOUT_MS,
    ...options,
  });
}
