/** Public surface of the admin screens for other features: the storage configs query (the upload page's picker). */
export { storageConfigsQueryOptions } from './storage-config/api/get-storage-configs.ts';
