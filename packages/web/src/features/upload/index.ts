/**
 * Public surface of the upload feature for other features: the share settings (the rules, the
 * link fields the explorer's "share" dialog reuses, the input the server takes) and the server's
 * upload options (largest size, whether mount uploads publish shares). The transfer engine itself
 * is not the feature's: it is lib/transfer.
 */
export {
  EMPTY_UPLOAD_SETTINGS,
  validateUploadSettings,
  type ShareInput,
  type UploadErrors,
  type UploadSettingsValues,
} from './upload-form.ts';
export { ShareLinkFields } from './components/share-settings-fields.tsx';
export { maxUploadSizeQueryOptions, useUploadShares } from './api/use-upload-options.ts';
export { sharePolicyQueryOptions, useSharePolicy } from './api/share-policy.ts';
export { SharePolicyNote } from './components/share-policy-note.tsx';
export { expiryPresetOf } from './share-policy-form.ts';
