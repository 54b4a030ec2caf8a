/**
 * The stored credentials (docs/product.md §3 "Browser storage keys"): `admin_token`, `api_key`,
 * `api_key_permissions` (JSON) and `api_key_info` (JSON), plus `admin_username` (the signed-in
 * account's name, so a reload shows it at once) and `admin_role` (`member` for a member's session
 * token, so a reload does not take a member for an admin) and `admin_must_enrol` (the session may only
 * set up two-factor sign-in yet, docs/accounts.md, so a reload shows that page). Reading is defensive: a malformed value counts as
 * absent.
 */
import type { Permissions } from '@cubby/shared';

export const STORAGE_KEYS = {
  adminToken: 'admin_token',
  adminUsername: 'admin_username',
  adminRole: 'admin_role',
  adminMustEnrol: 'admin_must_enrol',
  apiKey: 'api_key',
  apiKeyPermissions: 'api_key_permissions',
  apiKeyInfo: 'api_key_info',
} as const;

export interface ApiKeyInfo {
  id: string;
  name: string;
  basic_path: string;
}

export const NO_PERMISSIONS: Permissions = { text: false, file: false, mount: false };

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function readJson(key: string): unknown {
  const raw = read(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function toPermissions(value: unknown): Permissions {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return { text: v.text === true, file: v.file === true, mount: v.mount === true };
}

export function toApiKeyInfo(value: unknown): ApiKeyInfo | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' && typeof v.id !== 'number') return null;
  return {
    id: String(v.id),
    name: typeof v.name === 'string' ? v.name : '',
    basic_path: typeof v.basic_path === 'string' && v.basic_path !== '' ? v.basic_path : '/',
  };
}

export interface StoredCredentials {
  adminToken: string | null;
  adminUsername: string | null;
  apiKey: string | null;
  apiKeyPermissions: Permissions;
  apiKeyInfo: ApiKeyInfo | null;
  /** `member` when the session token belongs to a member (docs/accounts.md); an admin's is unmarked. */
  adminRole: 'admin' | 'member';
  /** The session must set up two-factor sign-in before anything else. */
  mustEnrol: boolean;
}

export function readStoredCredentials(): StoredCredentials {
  return {
    adminToken: read(STORAGE_KEYS.adminToken) || null,
    adminUsername: read(STORAGE_KEYS.adminUsername) || null,
    apiKey: read(STORAGE_KEYS.apiKey) || null,
    apiKeyPermissions: toPermissions(readJson(STORAGE_KEYS.apiKeyPermissions)),
    apiKeyInfo: toApiKeyInfo(readJson(STORAGE_KEYS.apiKeyInfo)),
    adminRole: read(STORAGE_KEYS.adminRole) === 'member' ? 'member' : 'admin',
    mustEnrol: read(STORAGE_KEYS.adminMustEnrol) === 'true',
  };
}

export function storeAdminToken(token: string, username: string, role: 'admin' | 'member' = 'admin'): void {
  clearStoredCredentials();
  localStorage.setItem(STORAGE_KEYS.adminToken, token);
  if (role === 'member') localStorage.setItem(STORAGE_KEYS.adminRole, role);
  storeAdminUsername(username);
}

/** The signed-in admin's name, as the server last said it. */
export function storeAdminUsername(username: string): void {
  try {
    localStorage.setItem(STORAGE_KEYS.adminUsername, username);
  } catch {
    // Storage unavailable: the name is asked for again at the next check.
  }
}

/** Whether the signed-in session must set up two-factor sign-in first. */
export function storeMustEnrol(mustEnrol: boolean): void {
  try {
    if (mustEnrol) localStorage.setItem(STORAGE_KEYS.adminMustEnrol, 'true');
    else localStorage.removeItem(STORAGE_KEYS.adminMustEnrol);
  } catch {
    // Storage unavailable: a reload asks the server again (a member) or finds out on the first 403.
  }
}

export function storeApiKey(key: string, permissions: Permissions, info: ApiKeyInfo): void {
  clearStoredCredentials();
  localStorage.setItem(STORAGE_KEYS.apiKey, key);
  localStorage.setItem(STORAGE_KEYS.apiKeyPermissions, JSON.stringify(permissions));
  localStorage.setItem(STORAGE_KEYS.apiKeyInfo, JSON.stringify(info));
}

export function clearStoredCredentials(): void {
  try {
    for (const key of Object.values(STORAGE_KEYS)) localStorage.removeItem(key);
  } catch {
    // Storage unavailable: nothing was stored either.
  }
}
