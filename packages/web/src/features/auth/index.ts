/** Public surface of the auth feature. */
export {
  useAuthStore,
  routeScope,
  startAuth,
  noticeMessageKey,
  REVALIDATE_AFTER_MS,
  type AuthState,
  type AuthType,
  type AuthNotice,
  type PermissionName,
  type UserInfo,
} from './auth-store.ts';
export {
  AUTH_STATE_CHANGED,
  ADMIN_TOKEN_EXPIRED,
  API_KEY_INVALID,
  type AuthChangeDetail,
} from './auth-events.ts';
export { LoginForm } from './components/login-form.tsx';
export { TwoFactorStep } from './components/two-factor-step.tsx';
export { SecondFactorField, useSecondFactorInput } from './components/second-factor-field.tsx';
export type { SecondFactor } from './api/admin-login.ts';
export { passkeyAssertion, type PasskeyAssertion } from './api/passkeys.ts';
export { passkeyErrorKey, type PasskeyErrorKey } from './passkey-errors.ts';
