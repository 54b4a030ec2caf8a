/**
 * Window events other parts of the page listen to (docs/product.md §4 "Auth"). Unlike the reference client,
 * which cleared the auth type before deciding, the expiry events really fire: `admin-token-expired`
 * after an admin session ends and `api-key-invalid` after a key session ends.
 */

export const AUTH_STATE_CHANGED = 'auth-state-changed';
export const ADMIN_TOKEN_EXPIRED = 'admin-token-expired';
export const API_KEY_INVALID = 'api-key-invalid';

export type AuthChangeDetail =
  | { type: 'admin-login'; isAuthenticated: true }
  | { type: 'apikey-login'; isAuthenticated: true }
  | {
      type: 'logout';
      isAuthenticated: false;
      previousType: 'admin' | 'member' | 'apikey' | 'none';
      reason: string;
    };

export function emitAuthChange(detail: AuthChangeDetail): void {
  window.dispatchEvent(new CustomEvent<AuthChangeDetail>(AUTH_STATE_CHANGED, { detail }));
}

export function emitSessionEnded(previousType: 'admin' | 'member' | 'apikey' | 'none', reason: string): void {
  // A member's session is a session token as an admin's is.
  if (previousType === 'admin' || previousType === 'member')
    window.dispatchEvent(new CustomEvent(ADMIN_TOKEN_EXPIRED, { detail: { reason } }));
  if (previousType === 'apikey')
    window.dispatchEvent(new CustomEvent(API_KEY_INVALID, { detail: { reason } }));
}
