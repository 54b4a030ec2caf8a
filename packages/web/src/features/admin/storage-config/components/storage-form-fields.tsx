/**
 * The fields of the storage config dialogs. The provider decides which fields show and what their
 * help says (endpoint format, region, path style); local disk only needs a folder on the server.
 * On edit the credential fields start empty and say that empty keeps the stored value.
 */
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SIGNATURE_EXPIRES_MAX, SIGNATURE_EXPIRES_MIN, STORAGE_NAME_MAX } from '@cubby/shared';
import { Checkbox, SelectField, TextField } from '../../../../components/form-field.tsx';
import { SizeField } from '../../settings/components/size-field.tsx';
import type { StorageConfig } from '../api/types.ts';
import {
  PROVIDER_PRESETS,
  PROVIDER_TYPES,
  type ProviderType,
  type StorageFormField,
  type StorageFormValues,
} from '../storage-form.ts';
import type { StorageFormState } from './use-storage-form.ts';

/** Example endpoints, shown as placeholders (addresses, not wording). */
const ENDPOINT_EXAMPLES: Record<ProviderType, string> = {
  'Cloudflare R2': 'https://<account-id>.r2.cloudflarestorage.com',
  'Backblaze B2': 'https://s3.us-west-004.backblazeb2.com',
  'AWS S3': 'https://s3.eu-central-1.amazonaws.com',
  'Other S3 Compatible': 'http://minio.example.com:9000',
  Local: '',
};

/** Identifiers, addresses and keys: typed exactly, shown in monospace. */
const CODE = { autoComplete: 'off', spellCheck: false, className: 'font-mono' } as const;

/** The form values edited as plain text (every one a field that can show an error). */
type TextFieldName = Exclude<StorageFormField, 'quotaValue'>;

export interface StorageFormFieldsProps {
  form: StorageFormState;
  onProviderChange(providerType: ProviderType): void;
  /** Edit: the stored config (credentials are kept when left empty; the driver cannot change). */
  stored?: StorageConfig;
}

export function StorageFormFields({ form, onProviderChange, stored }: StorageFormFieldsProps) {
  const { t } = useTranslation();
  const { values, change } = form;
  const preset = PROVIDER_PRESETS[values.providerType];
  const error = (field: Parameters<StorageFormState['fieldError']>[0]) =>
    form.fieldError(field, (key) => t(key));
  /** Name, value, error and change handler of a text field bound to the form value of that name. */
  const bound = (name: TextFieldName) => ({
    name,
    value: values[name],
    error: error(name),
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      change({ [name]: event.target.value } as Partial<StorageFormValues>),
  });
  const hint = (key: 'endpoint' | 'region' | 'pathStyle') =>
    t(`admin.storage.hints.${key}.${preset.id === 'local' ? 'other' : preset.id}`);
  // A stored config keeps its driver: local stays local, S3 moves between S3 providers.
  const choices = stored
    ? PROVIDER_TYPES.filter((type) => PROVIDER_PRESETS[type].driver === preset.driver)
    : PROVIDER_TYPES;

  return (
    <div className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t('admin.storage.fields.provider')}
          name="providerType"
          value={values.providerType}
          hint={t(`admin.storage.providerHints.${preset.id}`)}
          disabled={choices.length === 1}
          onChange={(event) => onProviderChange(event.target.value as ProviderType)}
        >
          {choices.map((type) => (
            <option key={type} value={type}>
              {t(`admin.storage.providers.${PROVIDER_PRESETS[type].id}`)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('admin.storage.fields.name')}
          {...bound('name')}
          maxLength={STORAGE_NAME_MAX}
          autoComplete="off"
          required
          hint={t('admin.storage.hints.name')}
        />
      </div>

      {preset.driver === 'local' ? (
        <TextField
          label={t('admin.storage.fields.rootPath')}
          {...bound('rootPath')}
          {...CODE}
          required
          placeholder={t('admin.storage.placeholders.rootPath')}
          hint={t('admin.storage.hints.rootPath')}
        />
      ) : (
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold text-fg">
            {t('admin.storage.sections.connection')}
          </legend>
          <TextField
            label={t('admin.storage.fields.endpoint')}
            {...bound('endpointUrl')}
            type="url"
            {...CODE}
            required={preset.endpointRequired}
            placeholder={ENDPOINT_EXAMPLES[values.providerType]}
            hint={hint('endpoint')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={t('admin.storage.fields.bucket')}
              {...bound('bucketName')}
              {...CODE}
              required
              hint={t('admin.storage.hints.bucket')}
            />
            <TextField
              label={t('admin.storage.fields.region')}
              {...bound('region')}
              value={preset.region === 'fixed' ? preset.defaultRegion : values.region}
              disabled={preset.region === 'fixed'}
              {...CODE}
              required={preset.region === 'required'}
              hint={hint('region')}
            />
            <TextField
              label={t('admin.storage.fields.accessKeyId')}
              {...bound('accessKeyId')}
              {...CODE}
              required={!stored}
              hint={
                stored
                  ? t('admin.storage.hints.accessKeyKeep', { masked: stored.access_key_id_masked ?? '—' })
                  : t('admin.storage.hints.accessKey')
              }
            />
            <TextField
              label={t('admin.storage.fields.secretAccessKey')}
              {...bound('secretAccessKey')}
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              required={!stored}
              hint={stored ? t('admin.storage.hints.secretKeep') : t('admin.storage.hints.secret')}
            />
          </div>
          <Checkbox
            label={t('admin.storage.fields.pathStyle')}
            description={hint('pathStyle')}
            name="pathStyle"
            checked={preset.pathStyle === 'forced' || values.pathStyle}
            disabled={preset.pathStyle === 'forced'}
            onChange={(event) => change({ pathStyle: event.target.checked })}
          />
        </fieldset>
      )}

      <fieldset className="space-y-4">
        <legend className="mb-2 text-sm font-semibold text-fg">{t('admin.storage.sections.options')}</legend>
        {preset.driver === 's3' && (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={t('admin.storage.fields.defaultFolder')}
              {...bound('defaultFolder')}
              {...CODE}
              hint={t('admin.storage.hints.defaultFolder')}
            />
            <TextField
              label={t('admin.storage.fields.customHost')}
              {...bound('customHost')}
              type="url"
              {...CODE}
              placeholder="https://files.example.com"
              hint={t('admin.storage.hints.customHost')}
            />
          </div>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('admin.storage.fields.signatureExpiresIn')}
            {...bound('signatureExpiresIn')}
            type="number"
            inputMode="numeric"
            min={SIGNATURE_EXPIRES_MIN}
            max={SIGNATURE_EXPIRES_MAX}
            step={1}
            hint={t('admin.storage.hints.signatureExpiresIn', {
              min: SIGNATURE_EXPIRES_MIN,
              max: SIGNATURE_EXPIRES_MAX,
            })}
          />
          <SizeField
            label={t('admin.storage.fields.quota')}
            name="quotaValue"
            value={values.quotaValue}
            unit={values.quotaUnit}
            hint={t('admin.storage.hints.quota')}
            error={error('quotaValue')}
            onChange={(quotaValue) => change({ quotaValue })}
            onUnitChange={(quotaUnit) => change({ quotaUnit })}
          />
        </div>
        <Checkbox
          label={t('admin.storage.fields.isPublic')}
          description={t('admin.storage.hints.isPublic')}
          name="isPublic"
          checked={values.isPublic}
          onChange={(event) => change({ isPublic: event.target.checked })}
        />
      </fieldset>
    </div>
  );
}
