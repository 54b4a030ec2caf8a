/**
 * The admin's single sign-on providers: list (GET /admin/oidc-providers, secrets masked), create
 * (POST), change (PUT /admin/oidc-providers/:id; the mask sent back keeps the stored secret) and
 * delete (DELETE). Each change refreshes the list.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OidcProviderInput, OidcProviderView } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

const KEY = ['oidc-providers'] as const;
const providerPath = (id: string) => `/admin/oidc-providers/${encodeURIComponent(id)}`;

export function useSsoProviders() {
  return useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) => {
      const providers = await api.get<OidcProviderView[]>('/admin/oidc-providers', { signal });
      return Array.isArray(providers) ? providers : [];
    },
  });
}

function useRefreshingMutation<TInput>(mutationFn: (input: TInput) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: KEY }),
  });
}

export const useCreateSsoProvider = () =>
  useRefreshingMutation((input: OidcProviderInput) =>
    api.post<OidcProviderView>('/admin/oidc-providers', input),
  );
export const useUpdateSsoProvider = () =>
  useRefreshingMutation(({ id, input }: { id: string; input: Partial<OidcProviderInput> }) =>
    api.put<OidcProviderView>(providerPath(id), input),
  );
export const useDeleteSsoProvider = () =>
  useRefreshingMutation((id: string) => api.delete<unknown>(providerPath(id)));
