/** The home folder and the quota, as a person and an invite both set them (docs/accounts.md). */
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../../components/form-field.tsx';
import { SizeField } from '../../settings/components/size-field.tsx';
import type { PersonFormValues } from '../person-form.ts';

type Values = Pick<PersonFormValues, 'homePath' | 'quota' | 'quotaUnit'>;

export function HomeQuotaFields({
  values,
  set,
  error,
  username = '',
}: {
  values: Values;
  set<K extends keyof Values>(field: K, value: Values[K]): void;
  /** The error of a field as the server names it (`home_path`, `quota_bytes`). */
  error(field: 'home_path' | 'quota_bytes'): string | null;
  /** Shows where the home folder goes when left empty. */
  username?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t('accounts.fields.homePath')}
        name="homePath"
        value={values.homePath}
        placeholder={t('accounts.placeholders.home', { username: username || '…' })}
        hint={t('accounts.hints.homePath')}
        error={error('home_path')}
        onChange={(event) => set('homePath', event.target.value)}
      />
      <SizeField
        label={t('accounts.fields.quota')}
        name="quota"
        value={values.quota}
        unit={values.quotaUnit}
        hint={t('accounts.hints.quota')}
        error={error('quota_bytes')}
        onChange={(value) => set('quota', value)}
        onUnitChange={(unit) => set('quotaUnit', unit)}
      />
    </>
  );
}
