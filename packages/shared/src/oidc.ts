/**
 * Single sign-on with OpenID Connect (docs/accounts.md, "Single sign-on"): the providers an admin
 * configures — the input rules the server validates and the admin form shares — and the errors a
 * sign-in can end with, which the server names in the `/login/oidc#error=<code>` redirect and the
 * web app shows in the user's language.
 */
import { z } from 'zod';

/** What the answers show instead of a stored client secret; sent back unchanged, it keeps it. */
/**
 * What an answer shows instead of a stored secret (a client secret, a bind or SMTP password); the
 * same value sent back on an edit keeps the stored one.
 */
export const SECRET_MASK = '********';
export const OIDC_SECRET_MASK = SECRET_MASK;
export const OIDC_DEFAULT_SCOPES = 'openid email profile';
export const OIDC_NAME_MAX = 64;
export const OIDC_ADMIN_VALUES_MAX = 50;

const text = (max: number, required: string) =>
  z.string({ error: required }).trim().min(1, { message: required }).max(max, { message: required });

const issuerSchema = z
  .string({ error: 'issuer_invalid' })
  .trim()
  .max(2048, { message: 'issuer_invalid' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        // Plain http only to a provider on this machine: elsewhere it would carry the client
        // secret and the tokens in the clear.
        const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
        return (url.protocol === 'https:' || (url.protocol === 'http:' && local)) && !url.search && !url.hash;
      } catch {
        return false;
      }
    },
    { message: 'issuer_invalid' },
  );

const scopesSchema = z
  .string({ error: 'scopes_invalid' })
  .trim()
  .max(512, { message: 'scopes_invalid' })
  .regex(/^(\S+\s+)*openid(\s+\S+)*$/, { message: 'scopes_invalid' });

const adminValuesSchema = z
  .array(z.string().trim().min(1).max(256), { error: 'admin_values_invalid' })
  .max(OIDC_ADMIN_VALUES_MAX, { message: 'admin_values_invalid' });

export const oidcProviderCreateSchema = z.object({
  name: text(OIDC_NAME_MAX, 'name_required'),
  issuer: issuerSchema,
  client_id: text(512, 'client_id_required'),
  client_secret: z.string().max(2048).optional(),
  scopes: scopesSchema.default(OIDC_DEFAULT_SCOPES),
  allow_signup: z.boolean().default(false),
  link_by_email: z.boolean().default(false),
  role_claim: z.union([z.null(), z.string().trim().max(128)]).optional(),
  admin_values: adminValuesSchema.default([]),
  enabled: z.boolean().default(true),
});

export const oidcProviderUpdateSchema = oidcProviderCreateSchema.partial();

export type OidcProviderInput = z.input<typeof oidcProviderCreateSchema>;

/** A provider as the admin routes answer it: the secret masked, never sent. */
export interface OidcProviderView {
  id: string;
  name: string;
  issuer: string;
  client_id: string;
  /** OIDC_SECRET_MASK when a secret is stored, '' when none (a public client). */
  client_secret: string;
  scopes: string;
  allow_signup: boolean;
  link_by_email: boolean;
  role_claim: string | null;
  admin_values: string[];
  enabled: boolean;
  /** What to register at the provider as the redirect (callback) URI. */
  redirect_uri: string;
  created_at: string;
  updated_at: string;
}

/** A provider as the login page lists it. */
export interface OidcProviderButton {
  id: string;
  name: string;
}

/**
 * Why a sign-in through a provider ended without a session: `/login/oidc#error=<code>`. Each has a
 * server message (`oidc.<code>`) and a web message (`oidc.error.<code>`).
 */
export const OIDC_ERROR_CODES = [
  'provider_unknown',
  'provider_unreachable',
  'state_invalid',
  'denied',
  'code_rejected',
  'token_audience',
  'token_expired',
  'token_invalid',
  'email_unverified',
  'signup_not_allowed',
  'account_disabled',
  'rate_limited',
  'failed',
] as const;
export type OidcErrorCode = (typeof OIDC_ERROR_CODES)[number];
