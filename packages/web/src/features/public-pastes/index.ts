/** Public surface of the public paste page: the layout's check whether to link it. */
export { usePublicPastesEnabled } from './api.ts';
