/** Public surface of bundles for other features: the form that makes one of chosen items. */
export { ShareAsBundle } from './share-as-bundle.tsx';
