/**
 * A storage configuration's name as the UI shows it: the local-disk config the server makes on first
 * start is named in English (BUILT_IN_STORAGE_NAME, which API answers keep), so while it keeps that
 * name it shows in the UI's language; any other name is the admin's and shows as written.
 */
import { useTranslation } from 'react-i18next';
import { BUILT_IN_STORAGE_NAME } from '@cubby/shared';

export function useStorageConfigName(): (name: string) => string {
  const { t } = useTranslation();
  return (name) => (name === BUILT_IN_STORAGE_NAME ? t('common.builtInStorage') : name);
}
