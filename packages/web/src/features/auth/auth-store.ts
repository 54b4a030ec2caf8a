/**
 * Who is signed in (docs/product.md §3 "Auth state", §4 "Auth"; docs/compatibility.md §9.2,
 * with its bugs fixed).
 *
 * - Three ways in: an admin account (session token), a member account (a session token too, from
 *   the same login form; the answer's `role` tells them apart, docs/accounts.md) or an API key
 *   (permissions text/file/mount and a base path). A member uses text, files and the explorer as
 *   a key with every permission would: their own, on the `/user/...` routes. The state is
 *   mirrored in localStorage; at start a stored admin token wins over a stored key, and stored
 *   credentials are revalidated with the server.
 * - Revalidation is due when the last check is older than five minutes. An admin's token is checked
 *   as CloudPaste's is (/test/admin-token); a member's with /auth/me, which also says their reach.
 * - Logout, or a failed revalidation, clears state and storage and emits `auth-state-changed`
 *   plus `admin-token-expired` (admin) or `api-key-invalid` (key). An admin logout also revokes the
 *   token on the server (errors ignored).
 * - A failed key login restores the previous key and type, then logs out.
 * - A password login of a person with two-factor sign-in needs a second factor (`adminLogin`'s
 *   `factor`); a session whose person the admin requires to set it up first is marked `mustEnrol`
 *   (from the login's answer or /auth/me, kept in storage) until `twoFactorEnrolled` (docs/accounts.md
 *   "Two-factor sign-in").
 */
import { create } from 'zustand';
import { isPathWithin, type Permissions, type UserRole } from '@cubby/shared';
import { ApiError, isApiError, registerAuthBridge, type Credential } from '../../lib/api/index.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { showToast } from '../../components/toast/toast-store.ts';
import { adminLogin as requestAdminLogin, type SecondFactor } from './api/admin-login.ts';
import { adminLogout as requestAdminLogout } from './api/admin-logout.ts';
import { verifyAdminToken } from './api/verify-admin-token.ts';
import { verifyApiKey } from './api/verify-api-key.ts';
import { getMe, type Me } from './api/get-me.ts';
import {
  NO_PERMISSIONS,
  STORAGE_KEYS,
  clearStoredCredentials,
  readStoredCredentials,
  storeAdminToken,
  storeAdminUsername,
  storeApiKey,
  storeMustEnrol,
  toApiKeyInfo,
  toPermissions,
  type ApiKeyInfo,
} from './auth-storage.ts';
import { emitAuthChange, emitSessionEnded } from './auth-events.ts';

export type AuthType = 'none' | 'admin' | 'member' | 'apikey';
export type PermissionName = keyof Permissions;
export type { ApiKeyInfo };

export interface UserInfo {
  id: string;
  /** The account name or the key's name (empty for an admin whose name is not known yet). */
  name: string;
  type: 'admin' | 'member' | 'apikey';
  basicPath: string;
}

/** Where a member reaches: their home folder and extra paths (docs/accounts.md "Where a person reaches"). */
export interface MemberReach {
  homePath: string | null;
  paths: Me['paths'];
}

/** Why the user was signed out, shown on the login form. */
export type AuthNotice = 'admin-session-expired' | 'api-key-invalid' | 'account-updated';
export type LogoutReason = 'user' | 'login-failed' | 'validation-failed' | AuthNotice;

/**
 * Which routes a principal works through: `/admin/...` for an admin (everything), `/user/...` for a
 * member or a key, which the server confines to what is theirs (docs/accounts.md).
 */
export function routeScope(state: Pick<AuthData, 'authType'>): 'admin' | 'user' {
  return state.authType === 'admin' ? 'admin' : 'user';
}

/** Revalidate the login when the last check is older than this (docs/product.md §9). */
export const REVALIDATE_AFTER_MS = 300_000;

interface AuthData {
  isAuthenticated: boolean;
  authType: AuthType;
  adminToken: string | null;
  apiKey: string | null;
  apiKeyInfo: ApiKeyInfo | null;
  apiKeyPermissions: Permissions;
  userInfo: UserInfo | null;
  /** A member's reach, once /auth/me answered; null for everyone else. */
  memberReach: MemberReach | null;
  lastValidated: number | null;
  notice: AuthNotice | null;
  /** The admin requires two-factor sign-in of this person, who has not set it up: nothing else works yet. */
  mustEnrol: boolean;
}

interface AuthActions {
  adminLogin(username: string, password: string, factor?: SecondFactor): Promise<void>;
  /** Keeps a session token as the signed-in person's (a password login, a single sign-on landing). */
  sessionLogin(token: string, username: string, role?: UserRole, mustEnrol?: boolean): Promise<void>;
  /** Two-factor sign-in is on now: the session reaches everything again. */
  twoFactorEnrolled(): void;
  /** Asks the server whether this session must set up two-factor sign-in first (after the admin's rule changed). */
  checkEnrolment(): Promise<void>;
  apiKeyLogin(key: string): Promise<void>;
  logout(reason?: LogoutReason): Promise<void>;
  /** Checks the stored credential with the server; false when the user ended up signed out. */
  validate(): Promise<boolean>;
  needsRevalidation(): boolean;
  hasPermission(permission: PermissionName): boolean;
  hasAnyPermission(): boolean;
  hasPathPermission(path: string): boolean;
  clearNotice(): void;
}

export type AuthState = AuthData & AuthActions;

const SIGNED_OUT: Omit<AuthData, 'notice'> = {
  isAuthenticated: false,
  authType: 'none',
  adminToken: null,
  apiKey: null,
  apiKeyInfo: null,
  apiKeyPermissions: NO_PERMISSIONS,
  userInfo: null,
  memberReach: null,
  lastValidated: null,
  mustEnrol: false,
};

const ADMIN_USER: UserInfo = { id: 'admin', name: '', type: 'admin', basicPath: '/' };

function keyUser(info: ApiKeyInfo): UserInfo {
  return { id: info.id, name: info.name, type: 'apikey', basicPath: info.basic_path };
}

/** A member as /auth/me describes them. */
function memberState(me: Me): Pick<AuthData, 'userInfo' | 'memberReach'> {
  return {
    userInfo: { id: me.id, name: me.username, type: 'member', basicPath: me.home_path ?? '/' },
    memberReach: { homePath: me.home_path, paths: me.paths },
  };
}

/** Initial state from storage: a stored admin token wins over a stored key. */
function restoreFromStorage(): Omit<AuthData, 'notice'> {
  const stored = readStoredCredentials();
  if (stored.adminToken) {
    const type = stored.adminRole;
    return {
      ...SIGNED_OUT,
      isAuthenticated: true,
      authType: type,
      adminToken: stored.adminToken,
      mustEnrol: stored.mustEnrol,
      // A member's id and reach come with the check that follows (validate).
      userInfo: {
        ...ADMIN_USER,
        id: type === 'member' ? '' : ADMIN_USER.id,
        type,
        name: stored.adminUsername ?? '',
      },
    };
  }
  if (stored.apiKey && stored.apiKeyInfo) {
    return {
      ...SIGNED_OUT,
      isAuthenticated: true,
      authType: 'apikey',
      apiKey: stored.apiKey,
      apiKeyInfo: stored.apiKeyInfo,
      apiKeyPermissions: stored.apiKeyPermissions,
      userInfo: keyUser(stored.apiKeyInfo),
    };
  }
  return SIGNED_OUT;
}

function credentialOf(state: Pick<AuthData, 'authType' | 'adminToken' | 'apiKey'>): Credential | null {
  // A member's session token travels as an admin's does (`Bearer`); the server tells them apart.
  if ((state.authType === 'admin' || state.authType === 'member') && state.adminToken) {
    return { type: 'admin', token: state.adminToken };
  }
  if (state.authType === 'apikey' && state.apiKey) return { type: 'apikey', key: state.apiKey };
  return null;
}

function sameCredential(a: Credential | null, b: Credential | null): boolean {
  if (!a || !b || a.type !== b.type) return false;
  return a.type === 'admin' ? a.token === (b as typeof a).token : a.key === (b as typeof a).key;
}

const tr = (key: 'auth.apiKeyVerificationFailed' | 'auth.tokenMissing') => String(i18n.t(key));

/** A verified key answer must be a success with data (docs/product.md §5). */
function parseKeyCheck(envelope: { success?: unknown; data: unknown }) {
  const data = envelope.data as { permissions?: unknown; key_info?: unknown } | null;
  const info = data ? toApiKeyInfo(data.key_info) : null;
  if (envelope.success !== true || !data || !info) {
    throw new ApiError(tr('auth.apiKeyVerificationFailed'), { status: 200, code: 'BAD_RESPONSE' });
  }
  return { permissions: toPermissions(data.permissions), info };
}

let validation: { credential: Credential; promise: Promise<boolean> } | null = null;

export const useAuthStore = create<AuthState>()((set, get) => ({
  ...restoreFromStorage(),
  notice: null,

  async adminLogin(username, password, factor) {
    const result = await requestAdminLogin(username, password, factor);
    const token = result?.token;
    if (typeof token !== 'string' || token === '') {
      throw new ApiError(tr('auth.tokenMissing'), { status: 200, code: 'BAD_RESPONSE' });
    }
    await get().sessionLogin(
      token,
      result?.username ?? username,
      result?.role,
      result?.two_factor_setup_required === true,
    );
  },

  async sessionLogin(token, name, role, mustEnrolAtLogin = false) {
    // A single sign-on lands without a role, a member's login needs their reach: both ask the server.
    const me = role === 'admin' ? null : await getMe(token);
    const mustEnrol = me?.must_enrol ?? mustEnrolAtLogin;
    if (me?.role === 'member') {
      // Who they are and where they reach, before the admin area decides what to show them.
      storeAdminToken(token, me.username, 'member');
      storeMustEnrol(mustEnrol);
      set({
        ...SIGNED_OUT,
        isAuthenticated: true,
        authType: 'member',
        adminToken: token,
        ...memberState(me),
        lastValidated: Date.now(),
        notice: null,
        mustEnrol,
      });
    } else {
      const adminName = me?.username ?? name;
      storeAdminToken(token, adminName);
      storeMustEnrol(mustEnrol);
      set({
        ...SIGNED_OUT,
        isAuthenticated: true,
        authType: 'admin',
        adminToken: token,
        userInfo: { ...ADMIN_USER, name: adminName },
        lastValidated: Date.now(),
        notice: null,
        mustEnrol,
      });
    }
    emitAuthChange({ type: 'admin-login', isAuthenticated: true });
  },

  async apiKeyLogin(key) {
    const previous = { authType: get().authType, apiKey: get().apiKey };
    set({ authType: 'apikey', apiKey: key });
    try {
      const { permissions, info } = parseKeyCheck(await verifyApiKey(key, { handleUnauthorized: false }));
      storeApiKey(key, permissions, info);
      set({
        ...SIGNED_OUT,
        isAuthenticated: true,
        authType: 'apikey',
        apiKey: key,
        apiKeyInfo: info,
        apiKeyPermissions: permissions,
        userInfo: keyUser(info),
        lastValidated: Date.now(),
        notice: null,
      });
      emitAuthChange({ type: 'apikey-login', isAuthenticated: true });
    } catch (error) {
      set(previous);
      await get().logout('login-failed');
      // A network problem keeps its own message; any answer from the server means "not verified".
      if (isApiError(error) && error.isTransport) throw error;
      throw new ApiError(tr('auth.apiKeyVerificationFailed'), {
        status: isApiError(error) ? error.status : 0,
        code: isApiError(error) ? error.code : 'BAD_RESPONSE',
      });
    }
  },

  async logout(reason = 'user') {
    const state = get();
    const previousType = state.authType;
    const token = state.authType === 'admin' || state.authType === 'member' ? state.adminToken : null;
    validation = null;
    clearStoredCredentials();
    const notice: AuthNotice | null =
      reason === 'admin-session-expired' || reason === 'api-key-invalid' || reason === 'account-updated'
        ? reason
        : null;
    set({ ...SIGNED_OUT, notice });
    if (notice === 'admin-session-expired' || notice === 'api-key-invalid') {
      showToast(String(i18n.t(noticeMessageKey(notice))), 'warning');
    }
    emitAuthChange({ type: 'logout', isAuthenticated: false, previousType, reason });
    emitSessionEnded(previousType, reason);
    if (token) {
      try {
        await requestAdminLogout(token);
      } catch {
        // The token may already be revoked or expired; the local session is gone either way.
      }
    }
  },

  validate() {
    const credential = credentialOf(get());
    if (!credential) return Promise.resolve(false);
    if (validation && sameCredential(validation.credential, credential)) return validation.promise;
    const promise = (async () => {
      try {
        if (credential.type === 'admin' && get().authType === 'member') {
          const me = await getMe(credential.token);
          if (sameCredential(credentialOf(get()), credential)) {
            // Made an admin meanwhile: from now on they are one (a demoted admin's check fails and
            // signs them out, to sign in again as a member).
            storeAdminToken(credential.token, me.username, me.role);
            storeMustEnrol(me.must_enrol === true);
            set({ mustEnrol: me.must_enrol === true });
            set(
              me.role === 'admin'
                ? { authType: 'admin', userInfo: { ...ADMIN_USER, name: me.username }, memberReach: null }
                : memberState(me),
            );
            set({ lastValidated: Date.now() });
          }
        } else if (credential.type === 'admin') {
          const { username } = await verifyAdminToken(credential.token);
          if (sameCredential(credentialOf(get()), credential)) {
            // The name as the server knows it now (it may have been changed elsewhere).
            if (username) storeAdminUsername(username);
            set((state) => ({
              lastValidated: Date.now(),
              userInfo: username ? { ...ADMIN_USER, name: username } : state.userInfo,
            }));
          }
        } else {
          const { permissions, info } = parseKeyCheck(await verifyApiKey(credential.key));
          if (sameCredential(credentialOf(get()), credential)) {
            storeApiKey(credential.key, permissions, info);
            set({
              apiKeyPermissions: permissions,
              apiKeyInfo: info,
              userInfo: keyUser(info),
              lastValidated: Date.now(),
            });
          }
        }
        return true;
      } catch (error) {
        // Offline or timed out: the credential was not rejected, so keep it and try again later.
        if (isApiError(error) && error.isTransport) return get().isAuthenticated;
        if (sameCredential(credentialOf(get()), credential)) {
          await get().logout(credential.type === 'admin' ? 'admin-session-expired' : 'api-key-invalid');
        }
        return false;
      } finally {
        if (validation && sameCredential(validation.credential, credential)) validation = null;
      }
    })();
    validation = { credential, promise };
    return promise;
  },

  needsRevalidation() {
    const { isAuthenticated, lastValidated } = get();
    return isAuthenticated && (lastValidated === null || Date.now() - lastValidated > REVALIDATE_AFTER_MS);
  },

  hasPermission(permission) {
    const state = get();
    if (state.authType === 'admin' || state.authType === 'member') return true;
    return state.authType === 'apikey' && state.apiKeyPermissions[permission];
  },

  hasAnyPermission() {
    const { hasPermission } = get();
    return hasPermission('text') || hasPermission('file') || hasPermission('mount');
  },

  hasPathPermission(path) {
    const state = get();
    if (state.authType === 'admin') return true;
    if (state.authType === 'member') {
      const reach = state.memberReach;
      if (!reach) return false;
      const roots = [...(reach.homePath ? [reach.homePath] : []), ...reach.paths.map((grant) => grant.path)];
      return roots.some((root) => isPathWithin(root, path));
    }
    if (state.authType !== 'apikey' || !state.apiKeyInfo) return false;
    return isPathWithin(state.apiKeyInfo.basic_path, path);
  },

  clearNotice() {
    set({ notice: null });
  },

  twoFactorEnrolled() {
    storeMustEnrol(false);
    set({ mustEnrol: false });
  },

  async checkEnrolment() {
    const credential = credentialOf(get());
    if (credential?.type !== 'admin') return;
    try {
      const me = await getMe(credential.token);
      if (!sameCredential(credentialOf(get()), credential)) return;
      storeMustEnrol(me.must_enrol === true);
      set({ mustEnrol: me.must_enrol === true });
    } catch {
      // Not known now: the next check or the server's 403s say it.
    }
  },
}));

const noticeMessages = {
  'admin-session-expired': 'errors.adminSessionExpired',
  'api-key-invalid': 'errors.apiKeyInvalid',
  'account-updated': 'settings.account.updated',
} as const;

/** The translation key explaining a notice. */
export function noticeMessageKey(notice: AuthNotice) {
  return noticeMessages[notice];
}

let started = false;

/**
 * Connects the auth state to the API client and to other tabs, then revalidates stored
 * credentials. Called once at start.
 */
export function startAuth(): void {
  if (started) return;
  started = true;
  registerAuthBridge({
    getCredential: () => credentialOf(useAuthStore.getState()),
    onCredentialRejected(credential) {
      const state = useAuthStore.getState();
      if (!sameCredential(credentialOf(state), credential)) return;
      void state.logout(credential.type === 'admin' ? 'admin-session-expired' : 'api-key-invalid');
    },
  });
  // Another tab signed in or out: follow it without calling the server.
  window.addEventListener('storage', (event) => {
    if (event.key !== null && !(Object.values(STORAGE_KEYS) as string[]).includes(event.key)) return;
    const restored = restoreFromStorage();
    if (sameCredential(credentialOf(restored), credentialOf(useAuthStore.getState()))) return;
    useAuthStore.setState({ ...restored, notice: null });
  });
  if (useAuthStore.getState().isAuthenticated) void useAuthStore.getState().validate();
}
