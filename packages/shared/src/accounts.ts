/**
 * Accounts (docs/accounts.md): people with a role, their home folder and extra paths, invites,
 * sessions and app passwords — the input rules the server validates and the web forms share, and
 * the shapes the routes answer.
 */
import { z } from 'zod';
import { basicPathSchema } from './api-keys.ts';
import type { UserRole } from './principal.ts';

export const USERNAME_MAX = 64;
/** Letters, digits and `._-`, starting with a letter or digit: safe in a path and a WebDAV login. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}._-]*$/u;
export const MIN_PASSWORD_LENGTH = 8;
export const PASSWORD_MAX = 1024;
/** Where members' home folders are made unless one is set: `/home/<username>`. */
export const HOMES_ROOT = '/home';
export const MAX_USER_PATHS = 50;
export const APP_PASSWORD_NAME_MAX = 64;
export const INVITE_MAX_DAYS = 90;
/** Who must sign in with two factors (the admin's setting `require_two_factor`). */
export const TWO_FACTOR_POLICIES = ['off', 'admins', 'everyone'] as const;
export type TwoFactorPolicy = (typeof TWO_FACTOR_POLICIES)[number];
/** The second factors a person has, as a 401 TWO_FACTOR_REQUIRED names them in `data.methods`. */
export type SecondFactorMethod = 'totp' | 'passkey' | 'recovery_code';

export const usernameSchema = z
  .string({ error: 'username_required' })
  .trim()
  .min(1, { message: 'username_required' })
  .max(USERNAME_MAX, { message: 'username_too_long' })
  .regex(USERNAME_PATTERN, { message: 'username_invalid' });

export const passwordSchema = z
  .string({ error: 'password_required' })
  .min(MIN_PASSWORD_LENGTH, { message: 'password_too_short' })
  .max(PASSWORD_MAX, { message: 'account_password_too_long' });

const roleSchema = z.enum(['admin', 'member'], { error: 'role_invalid' });
const emailSchema = z.union([z.null(), z.literal(''), z.email({ error: 'email_invalid' }).max(254)]);
const quotaSchema = z.union([z.null(), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)], {
  error: 'quota_invalid',
});
export const userPathSchema = z.object({
  path: basicPathSchema,
  access: z.enum(['read', 'write'], { error: 'access_invalid' }),
});

export const userCreateSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  role: roleSchema.default('member'),
  email: emailSchema.optional(),
  home_path: z.union([z.null(), z.literal(''), basicPathSchema]).optional(),
  quota_bytes: quotaSchema.optional(),
  paths: z.array(userPathSchema).max(MAX_USER_PATHS).optional(),
});

export const userUpdateSchema = z.object({
  role: roleSchema.optional(),
  email: emailSchema.optional(),
  status: z.enum(['active', 'disabled'], { error: 'status_invalid' }).optional(),
  home_path: z.union([z.null(), z.literal(''), basicPathSchema]).optional(),
  quota_bytes: quotaSchema.optional(),
  paths: z.array(userPathSchema).max(MAX_USER_PATHS).optional(),
  password: passwordSchema.optional(),
});

/** What becomes of a deleted user's pastes and file shares. */
export const userDeleteSchema = z.object({
  shares: z.enum(['keep', 'transfer', 'delete'], { error: 'shares_choice_invalid' }).default('keep'),
  transfer_to: z.string().max(100).optional(),
});

export const inviteCreateSchema = z.object({
  role: roleSchema.default('member'),
  email: emailSchema.optional(),
  home_path: z.union([z.null(), z.literal(''), basicPathSchema]).optional(),
  quota_bytes: quotaSchema.optional(),
  expires_in_days: z.number().int().min(1).max(INVITE_MAX_DAYS).default(7),
});

export const inviteAcceptSchema = z.object({ username: usernameSchema, password: passwordSchema });

export const appPasswordCreateSchema = z.object({
  name: z
    .string({ error: 'name_required' })
    .trim()
    .min(1, { message: 'name_required' })
    .max(APP_PASSWORD_NAME_MAX),
  access: z.enum(['read', 'write'], { error: 'access_invalid' }).default('write'),
  path: z.union([z.null(), z.literal(''), basicPathSchema]).optional(),
});

export interface UserView {
  id: string;
  username: string;
  role: UserRole;
  email: string | null;
  status: 'active' | 'disabled';
  /** The home folder in use (the set one, or the homes root + username); null for an admin. */
  home_path: string | null;
  quota_bytes: number | null;
  paths: { path: string; access: 'read' | 'write' }[];
  created_at: string;
  updated_at: string;
}

export interface InviteView {
  id: string;
  role: UserRole;
  email: string | null;
  home_path: string | null;
  quota_bytes: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
}

export interface SessionView {
  id: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  user_agent: string | null;
  ip: string | null;
  /** The session this request was made with. */
  current: boolean;
}

export interface AppPasswordView {
  id: string;
  name: string;
  /** The first characters, to tell passwords apart; never the password. */
  prefix: string;
  access: 'read' | 'write';
  path: string | null;
  created_at: string;
  last_used: string | null;
}

/** Passkeys (WebAuthn; docs/accounts.md "Passkeys"): the name a person gives one. */
export const PASSKEY_NAME_MAX = 64;
export const passkeyNameSchema = z
  .string({ error: 'name_required' })
  .trim()
  .min(1, { message: 'name_required' })
  .max(PASSKEY_NAME_MAX);

export interface PasskeyView {
  id: string;
  name: string;
  /** `singleDevice` (a security key, one device) or `multiDevice` (synced across a person's devices). */
  device_type: string;
  backed_up: boolean;
  created_at: string;
  last_used_at: string | null;
}
