/**
 * The admin's LDAP directory: its settings (GET /admin/ldap, the bind password masked), saving them
 * (PUT; the mask sent back keeps the stored password) and the connection test (POST
 * /admin/ldap/test, which tries the form's settings, saved or not).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LdapConfigInput, LdapConfigView, LdapTestResult } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

const KEY = ['ldap-config'] as const;

export function useLdapConfig() {
  return useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api.get<LdapConfigView>('/admin/ldap', { signal }),
  });
}

export function useSaveLdapConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LdapConfigInput) => api.put<LdapConfigView>('/admin/ldap', input),
    onSettled: () => refreshAfterChange(queryClient, { queryKey: KEY }),
  });
}

export const useTestLdapConfig = () =>
  useMutation({
    mutationFn: (input: LdapConfigInput & { username?: string }) =>
      api.post<LdapTestResult>('/admin/ldap/test', input),
  });
