/**
 * The admin's notifications: webhooks (GET/POST /admin/webhooks, PUT/DELETE /admin/webhooks/:id,
 * secrets masked — the mask sent back keeps the stored one), a webhook's test and delivery log,
 * and the SMTP settings group (GET /admin/settings?group=smtp, PUT /admin/settings/group/smtp) with
 * its test email (POST /admin/smtp/test).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  SmtpSettings,
  SmtpSettingsInput,
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookUpdate,
} from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

const WEBHOOKS = ['webhooks'] as const;
const SMTP = ['smtp-settings'] as const;
const hookPath = (id: string) => `/admin/webhooks/${encodeURIComponent(id)}`;
const deliveriesKey = (id: string) => ['webhook-deliveries', id] as const;

export function useWebhooks() {
  return useQuery({
    queryKey: WEBHOOKS,
    queryFn: async ({ signal }) => {
      const hooks = await api.get<Webhook[]>('/admin/webhooks', { signal });
      return Array.isArray(hooks) ? hooks : [];
    },
  });
}

function useRefreshingMutation<TInput, TOutput>(mutationFn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: WEBHOOKS }),
  });
}

export const useCreateWebhook = () =>
  useRefreshingMutation((input: WebhookCreate) => api.post<Webhook>('/admin/webhooks', input));
export const useUpdateWebhook = () =>
  useRefreshingMutation(({ id, input }: { id: string; input: WebhookUpdate }) =>
    api.put<Webhook>(hookPath(id), input),
  );
export const useDeleteWebhook = () =>
  useRefreshingMutation((id: string) => api.delete<unknown>(hookPath(id)));

export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<WebhookDelivery>(`${hookPath(id)}/test`, {}),
    onSettled: (_data, _error, id) => refreshAfterChange(queryClient, { queryKey: deliveriesKey(id) }),
  });
}

export function useWebhookDeliveries(id: string) {
  return useQuery({
    queryKey: deliveriesKey(id),
    queryFn: ({ signal }) => api.get<WebhookDelivery[]>(`${hookPath(id)}/deliveries`, { signal }),
  });
}

export function useSmtpSettings() {
  return useQuery({
    queryKey: SMTP,
    queryFn: ({ signal }) => api.get<SmtpSettings>('/admin/settings?group=smtp', { signal }),
  });
}

export function useSaveSmtpSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SmtpSettingsInput) => api.put<SmtpSettings>('/admin/settings/group/smtp', input),
    onSettled: () => refreshAfterChange(queryClient, { queryKey: SMTP }),
  });
}

export const useTestSmtp = () =>
  useMutation({
    mutationFn: (to: string) => api.post<{ to: string[] }>('/admin/smtp/test', to ? { to } : {}),
  });
