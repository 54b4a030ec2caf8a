/**
 * Public surface of what text and file shares have in common, for the features that create and
 * manage them (Home, upload, admin): the settings fields, the selectable list and its panel, its
 * paging and selection state, and the confirm-before-delete state.
 */
export * from './share-fields.tsx';
export { SelectableShareList, type ShareSelection } from './selectable-share-list.tsx';
export { ShareListPanel } from './share-list-panel.tsx';
export { useShareList } from './use-share-list.ts';
export { useConfirmation } from './use-confirmation.ts';
