/**
 * People and invites for an admin (docs/accounts.md "People"): /admin/users and /admin/invites.
 * A new invite's link exists on the client only in the creating call's answer, never cached.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  InviteView,
  UserView,
  inviteCreateSchema,
  userCreateSchema,
  userDeleteSchema,
  userUpdateSchema,
} from '@cubby/shared';
import { api, apiRequest } from '../../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

export const peopleKeys = {
  all: ['people'] as const,
  users: () => [...peopleKeys.all, 'users'] as const,
  invites: () => [...peopleKeys.all, 'invites'] as const,
};

type Parsed<S extends { parse(value: unknown): unknown }> = ReturnType<S['parse']>;
export type UserCreateInput = Parsed<typeof userCreateSchema>;
export type UserUpdateInput = Parsed<typeof userUpdateSchema>;
export type UserDeleteInput = Parsed<typeof userDeleteSchema>;
export type InviteCreateInput = Parsed<typeof inviteCreateSchema>;

const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

export const usersQueryOptions = () =>
  queryOptions({
    queryKey: peopleKeys.users(),
    queryFn: ({ signal }) => api.get<UserView[]>('/admin/users', { signal }),
  });

export function useUsers() {
  return useQuery(usersQueryOptions());
}

/** Every change to people refreshes both lists (an accepted invite is a person too). */
function usePeopleMutation<I, R>(mutationFn: (input: I) => Promise<R>, gcTime?: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    ...(gcTime === undefined ? {} : { gcTime }),
    onSettled: () => refreshAfterChange(queryClient, { queryKey: peopleKeys.all }),
  });
}

export const useCreateUser = () =>
  usePeopleMutation((input: UserCreateInput) => api.post<UserView>('/admin/users', input));

export const useUpdateUser = () =>
  usePeopleMutation(({ id, input }: { id: string; input: UserUpdateInput }) =>
    api.put<UserView>(userPath(id), input),
  );

export const useDeleteUser = () =>
  usePeopleMutation(({ id, input }: { id: string; input: UserDeleteInput }) =>
    apiRequest<unknown>(userPath(id), { method: 'DELETE', body: input }),
  );

export const invitesQueryOptions = () =>
  queryOptions({
    queryKey: peopleKeys.invites(),
    queryFn: ({ signal }) => api.get<InviteView[]>('/admin/invites', { signal }),
  });

export function useInvites() {
  return useQuery(invitesQueryOptions());
}

// Forget the finished mutation (and so the link) at once.
export const useCreateInvite = () =>
  usePeopleMutation(
    (input: InviteCreateInput) => api.post<InviteView & { url: string }>('/admin/invites', input),
    0,
  );

export const useRevokeInvite = () =>
  usePeopleMutation((id: string) => api.delete<unknown>(`/admin/invites/${encodeURIComponent(id)}`));
