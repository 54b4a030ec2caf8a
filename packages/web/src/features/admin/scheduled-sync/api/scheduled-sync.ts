/**
 * The admin's scheduled sync jobs (GET/POST /admin/scheduled/jobs, PUT/DELETE …/:taskId), their run
 * history (…/:taskId/runs), run now or dry run (…/:taskId/run) and cancel (…/:taskId/cancel).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SyncJob, SyncJobCreate, SyncJobUpdate, SyncRun } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

const JOBS = ['scheduled-jobs'] as const;
const jobPath = (id: string) => `/admin/scheduled/jobs/${encodeURIComponent(id)}`;
const runsKey = (id: string) => ['scheduled-job-runs', id] as const;
/** How often the list is read again while a run goes on. */
const WHILE_RUNNING_MS = 2000;

export function useSyncJobs() {
  return useQuery({
    queryKey: JOBS,
    queryFn: async ({ signal }) => {
      const answer = await api.get<{ items: SyncJob[] }>('/admin/scheduled/jobs', { signal });
      return Array.isArray(answer?.items) ? answer.items : [];
    },
    refetchInterval: (query) =>
      query.state.data?.some((job) => job.runningRunId !== null) ? WHILE_RUNNING_MS : false,
  });
}

function useRefreshingMutation<TInput, TOutput>(mutationFn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: async () => {
      await refreshAfterChange(queryClient, { queryKey: JOBS });
      await refreshAfterChange(queryClient, { queryKey: ['scheduled-job-runs'] });
    },
  });
}

export const useCreateSyncJob = () =>
  useRefreshingMutation((input: SyncJobCreate) => api.post<SyncJob>('/admin/scheduled/jobs', input));
export const useUpdateSyncJob = () =>
  useRefreshingMutation(({ id, input }: { id: string; input: SyncJobUpdate }) =>
    api.put<SyncJob>(jobPath(id), input),
  );
export const useDeleteSyncJob = () => useRefreshingMutation((id: string) => api.delete<unknown>(jobPath(id)));
export const useRunSyncJob = () =>
  useRefreshingMutation(({ id, dryRun }: { id: string; dryRun: boolean }) =>
    api.post<SyncRun>(`${jobPath(id)}/run`, { dryRun }),
  );
export const useCancelSyncRun = () =>
  useRefreshingMutation((id: string) => api.post<SyncRun>(`${jobPath(id)}/cancel`, {}));

export function useSyncRuns(id: string) {
  return useQuery({
    queryKey: runsKey(id),
    queryFn: async ({ signal }) => {
      const answer = await api.get<{ items: SyncRun[] }>(`${jobPath(id)}/runs?limit=50`, { signal });
      return Array.isArray(answer?.items) ? answer.items : [];
    },
    refetchInterval: (query) =>
      query.state.data?.some((run) => run.status === 'running') ? WHILE_RUNNING_MS : false,
  });
}
