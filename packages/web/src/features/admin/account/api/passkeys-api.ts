/**
 * One's own passkeys (docs/accounts.md "Passkeys"): /auth/passkeys. Adding one is a ceremony: the
 * server's options, the browser's `startRegistration`, then the server keeps what the browser made.
 * A person's first second factor also answers recovery codes: handed to the caller, never cached.
 */
import { startRegistration } from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PasskeyView } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

export const passkeysKey = ['account', 'passkeys'] as const;

export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: passkeysKey,
    queryFn: ({ signal }) => api.get<PasskeyView[]>('/auth/passkeys', { signal }),
  });

export function usePasskeys() {
  return useQuery(passkeysQueryOptions());
}

export type NewPasskey = PasskeyView & { recovery_codes?: string[] };

async function registerPasskey(name: string): Promise<NewPasskey> {
  const { challenge_id, options } = await api.post<{
    challenge_id: string;
    options: Parameters<typeof startRegistration>[0]['optionsJSON'];
  }>('/auth/passkeys/register/options');
  const response = await startRegistration({ optionsJSON: options });
  return api.post<NewPasskey>('/auth/passkeys/register', { challenge_id, response, name });
}

export function useRegisterPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerPasskey,
    // Forget the finished mutation (and so any recovery codes) at once.
    gcTime: 0,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: passkeysKey }),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api.patch<PasskeyView>(`/auth/passkeys/${encodeURIComponent(id)}`, { name }),
    onSettled: () => refreshAfterChange(queryClient, { queryKey: passkeysKey }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<unknown>(`/auth/passkeys/${encodeURIComponent(id)}`),
    onSettled: () => refreshAfterChange(queryClient, { queryKey: passkeysKey }),
  });
}
