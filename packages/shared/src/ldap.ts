/**
 * Signing in with a password kept in an LDAP directory (docs/accounts.md, "LDAP"): the one
 * directory an admin configures — the input rules the server validates and the admin form shares —
 * and what the connection test answers, step by step, which the web app shows in the user's
 * language (`ldap.test.<failure>`).
 */
import { z } from 'zod';
import { OIDC_SECRET_MASK } from './oidc.ts';

/** Placed in the user filter where the (escaped) username goes. */
export const LDAP_USERNAME_PLACEHOLDER = '{username}';
export const LDAP_DEFAULT_FILTER = '(uid={username})';
export const LDAP_DEFAULT_EMAIL_ATTRIBUTE = 'mail';
export const LDAP_DEFAULT_TIMEOUT_SECONDS = 5;
/** A directory that has not answered in this long is down, as far as a sign-in is concerned. */
export const LDAP_MAX_TIMEOUT_SECONDS = 30;

const urlSchema = z
  .string({ error: 'ldap_url_invalid' })
  .trim()
  .max(2048, { message: 'ldap_url_invalid' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        // Protocol, host and port only: what ldapts connects to.
        return (
          (url.protocol === 'ldap:' || url.protocol === 'ldaps:') &&
          url.hostname !== '' &&
          (url.pathname === '' || url.pathname === '/') &&
          !url.search &&
          !url.hash &&
          !url.username
        );
      } catch {
        return false;
      }
    },
    { message: 'ldap_url_invalid' },
  );

const dnSchema = (message: string) => z.string({ error: message }).trim().max(1024, { message });

const filterSchema = z
  .string({ error: 'filter_invalid' })
  .trim()
  .max(1024, { message: 'filter_invalid' })
  .refine(
    (value) => value.startsWith('(') && value.endsWith(')') && value.includes(LDAP_USERNAME_PLACEHOLDER),
    {
      message: 'filter_invalid',
    },
  );

export const ldapConfigSchema = z.object({
  enabled: z.boolean().default(false),
  url: urlSchema,
  start_tls: z.boolean().default(false),
  bind_dn: dnSchema('bind_dn_invalid').default(''),
  /** LDAP_SECRET_MASK (or no field) keeps the stored password; '' removes it. */
  bind_password: z.string().max(1024).optional(),
  user_base: dnSchema('user_base_required').min(1, { message: 'user_base_required' }),
  user_filter: filterSchema.default(LDAP_DEFAULT_FILTER),
  email_attribute: z
    .string({ error: 'email_attribute_invalid' })
    .trim()
    .regex(/^([A-Za-z][A-Za-z0-9-]{0,63})?$/, { message: 'email_attribute_invalid' })
    .default(LDAP_DEFAULT_EMAIL_ATTRIBUTE),
  /** A group's DN; a person listed in its `member` (or `uniqueMember`) is an admin. '' maps no role. */
  admin_group: dnSchema('admin_group_invalid').default(''),
  allow_signup: z.boolean().default(false),
  timeout_seconds: z
    .number({ error: 'timeout_invalid' })
    .int({ message: 'timeout_invalid' })
    .min(1, { message: 'timeout_invalid' })
    .max(LDAP_MAX_TIMEOUT_SECONDS, { message: 'timeout_invalid' })
    .default(LDAP_DEFAULT_TIMEOUT_SECONDS),
});

export type LdapConfigInput = z.input<typeof ldapConfigSchema>;

/** The connection test: the settings in the form (saved or not), and a username to look for. */
export const ldapTestSchema = ldapConfigSchema.extend({
  username: z.string().trim().max(256).optional(),
});

/** The directory as the admin route answers it: the bind password masked, never sent. */
export interface LdapConfigView {
  /** False until an admin saves a configuration. */
  configured: boolean;
  enabled: boolean;
  url: string;
  start_tls: boolean;
  bind_dn: string;
  /** LDAP_SECRET_MASK when a password is stored, '' when none (an anonymous search). */
  bind_password: string;
  user_base: string;
  user_filter: string;
  email_attribute: string;
  admin_group: string;
  allow_signup: boolean;
  timeout_seconds: number;
  updated_at: string | null;
}

/** What the answers show instead of the stored bind password; sent back unchanged, it keeps it. */
export const LDAP_SECRET_MASK = OIDC_SECRET_MASK;

/** The steps of the connection test, in order; one that fails ends the test. */
export const LDAP_TEST_STEPS = ['reach', 'tls', 'bind', 'search'] as const;
export type LdapTestStep = (typeof LDAP_TEST_STEPS)[number];

/** Why a step failed: each has a web message (`ldap.test.<failure>`). */
export const LDAP_TEST_FAILURES = [
  'unreachable',
  'timeout',
  'tls_failed',
  'bind_refused',
  'search_failed',
  'user_not_found',
  'user_ambiguous',
] as const;
export type LdapTestFailure = (typeof LDAP_TEST_FAILURES)[number];

export interface LdapTestResult {
  ok: boolean;
  steps: { step: LdapTestStep; ok: boolean; failure?: LdapTestFailure; detail?: string }[];
  /** When a username was given and found: who it is. */
  user?: { dn: string; email: string | null; admin: boolean | null };
}

/** What the admin route answers before any directory was saved: the defaults the form starts from. */
export const LDAP_UNCONFIGURED: LdapConfigView = {
  configured: false,
  enabled: false,
  url: '',
  start_tls: false,
  bind_dn: '',
  bind_password: '',
  user_base: '',
  user_filter: LDAP_DEFAULT_FILTER,
  email_attribute: LDAP_DEFAULT_EMAIL_ATTRIBUTE,
  admin_group: '',
  allow_signup: false,
  timeout_seconds: LDAP_DEFAULT_TIMEOUT_SECONDS,
  updated_at: null,
};
