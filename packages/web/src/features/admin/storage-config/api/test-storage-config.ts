/**
 * POST /s3-configs/:id/test: runs the storage checks (list, write, read, delete, and for S3 the
 * browser-upload checks CORS and ETag) and reports each step. A failed check is a report, not an
 * error: the answer is 200 with `success: false`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api/index.ts';
import { storageConfigKeys } from './query-keys.ts';
import type { StorageTestReport, TestStep } from './types.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

interface RawReport {
  success?: boolean;
  result?: { steps?: Partial<TestStep>[] };
}

export async function testStorageConfig(id: string): Promise<StorageTestReport> {
  const body = await apiRequest<RawReport>(`/s3-configs/${encodeURIComponent(id)}/test`, {
    method: 'POST',
    // Every check talks to the storage; a slow bucket needs more than the default 30 s.
    timeoutMs: 120_000,
  });
  const steps = Array.isArray(body.data?.result?.steps) ? body.data.result.steps : [];
  return {
    success: Boolean(body.data?.success),
    message: body.message,
    steps: steps.map((step) => ({
      name: String(step.name ?? ''),
      success: Boolean(step.success),
      duration_ms: Number(step.duration_ms) || 0,
      note: step.note ?? '',
      ...(step.error ? { error: step.error } : {}),
    })),
  };
}

export function useTestStorageConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testStorageConfig,
    // A test records `last_used`.
    onSettled: () => refreshAfterChange(queryClient, { queryKey: storageConfigKeys.all }),
  });
}
