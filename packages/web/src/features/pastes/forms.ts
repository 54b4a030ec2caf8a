/**
 * Public surface of the text-share forms (the Home editor): the rules (with the server's zod
 * schemas), the settings fields and their state. Kept apart from `index.ts` so that importing the
 * API hooks never pulls the schemas into the paste view.
 */
export { EMPTY_SETTINGS, utf8Bytes, validateCreate, type PasteSettingsValues } from './paste-form.ts';
export { PasteSettingsFields } from './components/paste-settings-fields.tsx';
export { usePasteForm } from './components/use-paste-form.ts';
