/** Query keys of file shares in management: one factory, so invalidation cannot miss a variant. */
import type { ManagementScope } from '../../../pastes/index.ts';
import type { FileListParams } from './types.ts';

export const fileShareKeys = {
  all: ['file-shares'] as const,
  managed: () => [...fileShareKeys.all, 'managed'] as const,
  list: (scope: ManagementScope, params: FileListParams) =>
    [...fileShareKeys.managed(), 'list', scope, params] as const,
};
