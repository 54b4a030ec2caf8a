/**
 * Public surface of the text-share feature for readers and managers: API calls and hooks, share
 * addresses, the creator check, and the edit dialog (a lazy chunk, so the paste view loads it only
 * for a creator who opens it). The form rules, which carry the zod schemas, are in `forms.ts`, so
 * the paste view never loads them.
 */
import { lazy } from 'react';

export { useCreatePaste, type CreatedPaste } from './api/create-paste.ts';
export { usePasteView, pasteViewQueryOptions } from './api/get-paste-view.ts';
export { useUnlockPaste } from './api/unlock-paste.ts';
export { usePastes, type Pagination, type PastePage } from './api/get-pastes.ts';
export { usePasteDetail, toPasteView } from './api/get-paste-detail.ts';
export { useDeletePaste, useBatchDeletePastes, useClearExpiredPastes } from './api/delete-pastes.ts';
export { useManagementScope, type ManagementScope } from './api/management-scope.ts';
export { pasteKeys } from './api/query-keys.ts';
export { useCanCreatePaste, useCanEditPaste } from './use-can-edit-paste.ts';
export { pastePageUrl, rawPasteUrl } from './share-urls.ts';

export const EditPasteDialog = lazy(() => import('./components/edit-paste-dialog.tsx'));
