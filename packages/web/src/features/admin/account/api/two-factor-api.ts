/**
 * One's own two-factor sign-in (docs/accounts.md "Two-factor sign-in"): /auth/two-factor…, for any
 * signed-in person, also while the admin requires them to set it up first. The secret and the
 * recovery codes exist on the client only in the answers of the calls that make them (gcTime 0).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';
import type { SecondFactor } from '../../../auth/index.ts';

export interface TwoFactorStatus {
  totp: boolean;
  recovery_codes_left: number;
  /** The admin requires two-factor sign-in of this person. */
  required: boolean;
}

export const twoFactorKeys = { status: ['account', 'two-factor'] as const };

export const twoFactorStatusQueryOptions = () =>
  queryOptions({
    queryKey: twoFactorKeys.status,
    queryFn: ({ signal }) => api.get<TwoFactorStatus>('/auth/two-factor', { signal }),
  });

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQueryOptions());
}

/** A mutation of the two-factor state: forgotten at once (its answer may hold secrets), then the status is read again. */
function useTwoFactorMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    gcTime: 0,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: twoFactorKeys.status }),
  });
}

/** A new secret for the authenticator app (kept aside by the server until enabled). */
export const useSetupTwoFactor = () =>
  useTwoFactorMutation(() =>
    api.post<{ secret: string; otpauth_url: string }>('/auth/two-factor/totp/setup', {}),
  );

/** Turns it on with a first code; answers the ten recovery codes, shown once. */
export const useEnableTwoFactor = () =>
  useTwoFactorMutation((code: string) =>
    api.post<{ recovery_codes: string[] }>('/auth/two-factor/totp/enable', { code }),
  );

export const useDisableTwoFactor = () =>
  useTwoFactorMutation((factor: SecondFactor) => api.post<null>('/auth/two-factor/totp/disable', factor));

/** New recovery codes for a current code or a recovery code; the old ones stop. */
export const useRenewRecoveryCodes = () =>
  useTwoFactorMutation((factor: SecondFactor) =>
    api.post<{ recovery_codes: string[] }>('/auth/two-factor/recovery-codes', factor),
  );
