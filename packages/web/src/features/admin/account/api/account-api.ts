/**
 * One's own sessions and app passwords (docs/accounts.md "Sessions", "App passwords for WebDAV"):
 * /auth/sessions and /auth/app-passwords, for any signed-in person. A new app password exists on
 * the client only in the creating call's answer: it is handed to the caller, never cached.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppPasswordView, SessionView, appPasswordCreateSchema } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

export const accountKeys = {
  sessions: ['account', 'sessions'] as const,
  appPasswords: ['account', 'app-passwords'] as const,
};

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.sessions,
    queryFn: ({ signal }) => api.get<SessionView[]>('/auth/sessions', { signal }),
  });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

/** Ends one session (by id), or every one but this one (no id). */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) =>
      api.delete<unknown>(id === null ? '/auth/sessions' : `/auth/sessions/${encodeURIComponent(id)}`),
    onSettled: () => refreshAfterChange(queryClient, { queryKey: accountKeys.sessions }),
  });
}

export const appPasswordsQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.appPasswords,
    queryFn: ({ signal }) => api.get<AppPasswordView[]>('/auth/app-passwords', { signal }),
  });

export function useAppPasswords() {
  return useQuery(appPasswordsQueryOptions());
}

export type AppPasswordInput = ReturnType<typeof appPasswordCreateSchema.parse>;

export function useCreateAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AppPasswordInput) =>
      api.post<AppPasswordView & { password: string }>('/auth/app-passwords', input),
    // Forget the finished mutation (and so the password) at once.
    gcTime: 0,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: accountKeys.appPasswords }),
  });
}

export function useRevokeAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<unknown>(`/auth/app-passwords/${encodeURIComponent(id)}`),
    onSettled: () => refreshAfterChange(queryClient, { queryKey: accountKeys.appPasswords }),
  });
}
