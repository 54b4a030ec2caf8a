/** Public surface of the folder share page for other features: a share's address. */
export { folderPageUrl } from './folder-urls.ts';
