/**
 * Form logic of the single sign-on provider dialog: the values as typed, the client-side checks
 * (the server checks again with `oidcProviderCreateSchema`) and the body sent. The admin values are
 * typed one per line or separated by commas.
 */
import { OIDC_DEFAULT_SCOPES, type OidcProviderInput, type OidcProviderView } from '@cubby/shared';

export interface SsoFormValues {
  name: string;
  issuer: string;
  clientId: string;
  /** The mask while the stored secret is kept; '' for none. */
  clientSecret: string;
  scopes: string;
  allowSignup: boolean;
  linkByEmail: boolean;
  roleClaim: string;
  adminValues: string;
  enabled: boolean;
}

export type SsoFormField =
  'name' | 'issuer' | 'clientId' | 'clientSecret' | 'scopes' | 'roleClaim' | 'adminValues';
export type SsoFormErrorKey =
  'admin.sso.errors.nameRequired' | 'admin.sso.errors.issuerRequired' | 'admin.sso.errors.clientIdRequired';
export type SsoFormErrors = Partial<Record<SsoFormField, SsoFormErrorKey>>;

/** The server's field names in a 400 answer, as form fields. */
export const SERVER_FIELD: Record<string, SsoFormField> = {
  name: 'name',
  issuer: 'issuer',
  client_id: 'clientId',
  client_secret: 'clientSecret',
  scopes: 'scopes',
  role_claim: 'roleClaim',
  admin_values: 'adminValues',
};

export function emptySsoForm(): SsoFormValues {
  return {
    name: '',
    issuer: '',
    clientId: '',
    clientSecret: '',
    scopes: OIDC_DEFAULT_SCOPES,
    allowSignup: false,
    linkByEmail: false,
    roleClaim: '',
    adminValues: '',
    enabled: true,
  };
}

export function valuesOf(provider: OidcProviderView): SsoFormValues {
  return {
    name: provider.name,
    issuer: provider.issuer,
    clientId: provider.client_id,
    clientSecret: provider.client_secret,
    scopes: provider.scopes,
    allowSignup: provider.allow_signup,
    linkByEmail: provider.link_by_email,
    roleClaim: provider.role_claim ?? '',
    adminValues: provider.admin_values.join('\n'),
    enabled: provider.enabled,
  };
}

export function validateSsoForm(
  values: SsoFormValues,
): { ok: true; input: OidcProviderInput } | { ok: false; errors: SsoFormErrors } {
  const errors: SsoFormErrors = {};
  if (!values.name.trim()) errors.name = 'admin.sso.errors.nameRequired';
  if (!values.issuer.trim()) errors.issuer = 'admin.sso.errors.issuerRequired';
  if (!values.clientId.trim()) errors.clientId = 'admin.sso.errors.clientIdRequired';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      name: values.name.trim(),
      issuer: values.issuer.trim(),
      client_id: values.clientId.trim(),
      client_secret: values.clientSecret,
      scopes: values.scopes.trim() || OIDC_DEFAULT_SCOPES,
      allow_signup: values.allowSignup,
      link_by_email: values.linkByEmail,
      role_claim: values.roleClaim.trim() || null,
      admin_values: values.adminValues
        .split(/[\n,]/)
        .map((value) => value.trim())
        .filter(Boolean),
      enabled: values.enabled,
    },
  };
}
