/**
 * Public surface of the text-share feature for readers and managers: API calls and hooks, share
 * addresses, the creator check, the edit dialog (a lazy chunk with its texts, so the paste view
 * loads them only for a creator who opens it), and the form rules and fields (Home's editor, the
 * admin's file form, the upload settings). Only re-exports: the build treats this file as free of
 * side effects, so a screen gets just the modules it uses — the paste view never loads the form
 * rules and their zod schemas.
 */
export { useCreatePaste, type CreatedPaste } from './api/create-paste.ts';
export { usePasteView, pasteViewQueryOptions, toPasteView } from './api/get-paste-view.ts';
export { useUnlockPaste } from './api/unlock-paste.ts';
export { usePastes, type Pagination, type PastePage } from './api/get-pastes.ts';
export { usePasteDetail } from './api/get-paste-detail.ts';
export {
  useDeletePaste,
  useBatchDeletePastes,
  useClearExpiredPastes,
  useRevokePaste,
} from './api/delete-pastes.ts';
export { useManagementScope, type ManagementScope } from './api/management-scope.ts';
export { pasteKeys } from './api/query-keys.ts';
export { useCanCreatePaste, useCanEditPaste } from './use-can-edit-paste.ts';
export { pastePageUrl, rawPasteUrl } from './share-urls.ts';
export { EditPasteDialog } from './components/lazy-edit-paste-dialog.ts';
export {
  EMPTY_SETTINGS,
  MESSAGE_ERRORS,
  commonErrors,
  expiresAtFor,
  parseMaxViews,
  utf8Bytes,
  validateCreate,
  type PasteErrors,
  type PasteSettingsValues,
} from './paste-form.ts';
export { PasteSettingsFields } from './components/paste-settings-fields.tsx';
export { usePasteForm } from './components/use-paste-form.ts';
export { AddFileButton, FileTabs, fileName, useDraftFiles, type DraftFile } from './components/file-tabs.tsx';
