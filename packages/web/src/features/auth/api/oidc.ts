/**
 * Single sign-on from the web app's side (docs/accounts.md, "Single sign-on"): the enabled providers
 * for the login page, the address that starts a sign-in at one, and what the server's redirect back
 * to `/login/oidc` says in its fragment — a session, or why there is none.
 */
import { OIDC_ERROR_CODES, type OidcErrorCode, type OidcProviderButton } from '@cubby/shared';
import { api, getApiBaseUrl } from '../../../lib/api/index.ts';

export async function getSsoProviders(signal?: AbortSignal): Promise<OidcProviderButton[]> {
  const providers = await api.get<OidcProviderButton[]>('/auth/oidc/providers', { signal, credential: null });
  return Array.isArray(providers) ? providers : [];
}

/** Where the browser goes to sign in through a provider (a full navigation, not a fetch). */
export function ssoStartUrl(providerId: string): string {
  return `${getApiBaseUrl()}/auth/oidc/${encodeURIComponent(providerId)}/start`;
}

export type SsoLanding =
  { kind: 'session'; token: string; username: string } | { kind: 'error'; code: OidcErrorCode };

/** Reads `#token=…&username=…` or `#error=<code>`; an unknown code reads as `failed`. */
export function parseSsoLanding(hash: string): SsoLanding {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token');
  if (token) return { kind: 'session', token, username: params.get('username') ?? '' };
  const code = params.get('error');
  return {
    kind: 'error',
    code: (OIDC_ERROR_CODES as readonly string[]).includes(code ?? '') ? (code as OidcErrorCode) : 'failed',
  };
}
