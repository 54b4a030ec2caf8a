/**
 * Form logic of the LDAP section: the values as typed, the client-side checks (the server checks
 * again with `ldapConfigSchema`) and the body sent — to save, or to test before saving.
 */
import {
  LDAP_DEFAULT_EMAIL_ATTRIBUTE,
  LDAP_DEFAULT_FILTER,
  LDAP_DEFAULT_TIMEOUT_SECONDS,
  LDAP_USERNAME_PLACEHOLDER,
  type LdapConfigInput,
  type LdapConfigView,
} from '@cubby/shared';

export interface LdapFormValues {
  enabled: boolean;
  url: string;
  startTls: boolean;
  bindDn: string;
  /** The mask while the stored password is kept; '' for none. */
  bindPassword: string;
  userBase: string;
  userFilter: string;
  emailAttribute: string;
  adminGroup: string;
  allowSignup: boolean;
  timeoutSeconds: string;
}

export type LdapFormField =
  | 'url'
  | 'bindDn'
  | 'bindPassword'
  | 'userBase'
  | 'userFilter'
  | 'emailAttribute'
  | 'adminGroup'
  | 'timeoutSeconds';
export type LdapFormErrorKey =
  | 'admin.ldap.errors.urlInvalid'
  | 'admin.ldap.errors.userBaseRequired'
  | 'admin.ldap.errors.filterInvalid'
  | 'admin.ldap.errors.timeoutInvalid';
export type LdapFormErrors = Partial<Record<LdapFormField, LdapFormErrorKey>>;

/** The server's field names in a 400 answer, as form fields. */
export const LDAP_SERVER_FIELD: Record<string, LdapFormField> = {
  url: 'url',
  bind_dn: 'bindDn',
  bind_password: 'bindPassword',
  user_base: 'userBase',
  user_filter: 'userFilter',
  email_attribute: 'emailAttribute',
  admin_group: 'adminGroup',
  timeout_seconds: 'timeoutSeconds',
};

export function ldapValuesOf(config: LdapConfigView): LdapFormValues {
  return {
    enabled: config.enabled,
    url: config.url,
    startTls: config.start_tls,
    bindDn: config.bind_dn,
    bindPassword: config.bind_password,
    userBase: config.user_base,
    userFilter: config.user_filter || LDAP_DEFAULT_FILTER,
    emailAttribute: config.email_attribute,
    adminGroup: config.admin_group,
    allowSignup: config.allow_signup,
    timeoutSeconds: String(config.timeout_seconds || LDAP_DEFAULT_TIMEOUT_SECONDS),
  };
}

export function validateLdapForm(
  values: LdapFormValues,
): { ok: true; input: LdapConfigInput } | { ok: false; errors: LdapFormErrors } {
  const errors: LdapFormErrors = {};
  const url = values.url.trim();
  if (!/^ldaps?:\/\/[^/?#\s]+\/?$/i.test(url)) errors.url = 'admin.ldap.errors.urlInvalid';
  if (!values.userBase.trim()) errors.userBase = 'admin.ldap.errors.userBaseRequired';
  const filter = values.userFilter.trim();
  if (!(filter.startsWith('(') && filter.endsWith(')') && filter.includes(LDAP_USERNAME_PLACEHOLDER))) {
    errors.userFilter = 'admin.ldap.errors.filterInvalid';
  }
  const timeout = Number(values.timeoutSeconds);
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 30) {
    errors.timeoutSeconds = 'admin.ldap.errors.timeoutInvalid';
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      enabled: values.enabled,
      url,
      start_tls: values.startTls,
      bind_dn: values.bindDn.trim(),
      bind_password: values.bindPassword,
      user_base: values.userBase.trim(),
      user_filter: filter,
      email_attribute: values.emailAttribute.trim() || LDAP_DEFAULT_EMAIL_ATTRIBUTE,
      admin_group: values.adminGroup.trim(),
      allow_signup: values.allowSignup,
      timeout_seconds: timeout,
    },
  };
}
