/**
 * Public surface of the admin screens for other features: the storage configs query (the upload page's
 * picker) and the check of the invite page's form (the rules of the People module's forms).
 */
export { storageConfigsQueryOptions } from './storage-config/api/get-storage-configs.ts';
export { validateAcceptInvite } from './people/person-form.ts';
