/**
 * The fields of the storage config dialogs. The provider decides which fields show and what their
 * help says (endpoint format, region, path style); local disk only needs a folder on the server.
 * On edit the credential fields start empty and say that empty keeps the stored value.
 */
import { useTranslation } from 'react-i18next';
import { SIGNATURE_EXPIRES_MAX, SIGNATURE_EXPIRES_MIN, STORAGE_NAME_MAX } from '@cubby/shared';
import { Checkbox, SelectField, TextField } from '../../../../components/form-field.tsx';
import { SizeField } from '../../settings/components/size-field.tsx';
import type { StorageConfig } from '../api/types.ts';
import { PROVIDER_PRESETS, PROVIDER_TYPES, type ProviderType } from '../storage-form.ts';
import type { StorageFormState } from './use-storage-form.ts';

/** Example endpoints, shown as placeholders (addresses, not wording). */
const ENDPOINT_EXAMPLES: Record<ProviderType, string> = {
  'Cloudflare R2': 'https://<account-id>.r2.cloudflarestorage.com',
  'Backblaze B2': 'https://s3.us-west-004.backblazeb2.com',
  'AWS S3': 'https://s3.eu-central-1.amazonaws.com',
  'Other S3 Compatible': 'http://minio.example.com:9000',
  Local: '',
};

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
          name="name"
          value={values.name}
          maxLength={STORAGE_NAME_MAX}
          autoComplete="off"
          required
          hint={t('admin.storage.hints.name')}
          error={error('name')}
          onChange={(event) => change({ name: event.target.value })}
        />
      </div>

      {preset.driver === 'local' ? (
        <TextField
          label={t('admin.storage.fields.rootPath')}
          name="rootPath"
          value={values.rootPath}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          required
          placeholder={t('admin.storage.placeholders.rootPath')}
          hint={t('admin.storage.hints.rootPath')}
          error={error('rootPath')}
          onChange={(event) => change({ rootPath: event.target.value })}
        />
      ) : (
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold text-fg">
            {t('admin.storage.sections.connection')}
          </legend>
          <TextField
            label={t('admin.storage.fields.endpoint')}
            name="endpointUrl"
            type="url"
            value={values.endpointUrl}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            required={preset.endpointRequired}
            placeholder={ENDPOINT_EXAMPLES[values.providerType]}
            hint={hint('endpoint')}
            error={error('endpointUrl')}
            onChange={(event) => change({ endpointUrl: event.target.value })}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={t('admin.storage.fields.bucket')}
              name="bucketName"
              value={values.bucketName}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              required
              hint={t('admin.storage.hints.bucket')}
              error={error('bucketName')}
              onChange={(event) => change({ bucketName: event.target.value })}
            />
            <TextField
              label={t('admin.storage.fields.region')}
              name="region"
              value={preset.region === 'fixed' ? preset.defaultRegion : values.region}
              disabled={preset.region === 'fixed'}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              required={preset.region === 'required'}
              hint={hint('region')}
              error={error('region')}
              onChange={(event) => change({ region: event.target.value })}
            />
            <TextField
              label={t('admin.storage.fields.accessKeyId')}
              name="accessKeyId"
              value={values.accessKeyId}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              required={!stored}
              hint={
                stored
                  ? t('admin.storage.hints.accessKeyKeep', { masked: stored.access_key_id_masked ?? '—' })
                  : t('admin.storage.hints.accessKey')
              }
              error={error('accessKeyId')}
              onChange={(event) => change({ accessKeyId: event.target.value })}
            />
            <TextField
              label={t('admin.storage.fields.secretAccessKey')}
              name="secretAccessKey"
              type="password"
              value={values.secretAccessKey}
              autoComplete="new-password"
              spellCheck={false}
              required={!stored}
              hint={stored ? t('admin.storage.hints.secretKeep') : t('admin.storage.hints.secret')}
              error={error('secretAccessKey')}
              onChange={(event) => change({ secretAccessKey: event.target.value })}
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
              name="defaultFolder"
              value={values.defaultFolder}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              hint={t('admin.storage.hints.defaultFolder')}
              error={error('defaultFolder')}
              onChange={(event) => change({ defaultFolder: event.target.value })}
            />
            <TextField
              label={t('admin.storage.fields.customHost')}
              name="customHost"
              type="url"
              value={values.customHost}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              placeholder="https://files.example.com"
              hint={t('admin.storage.hints.customHost')}
              error={error('customHost')}
              onChange={(event) => change({ customHost: event.target.value })}
            />
          </div>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('admin.storage.fields.signatureExpiresIn')}
            name="signatureExpiresIn"
            type="number"
            inputMode="numeric"
            min={SIGNATURE_EXPIRES_MIN}
            max={SIGNATURE_EXPIRES_MAX}
            step={1}
            value={values.signatureExpiresIn}
            hint={t('admin.storage.hints.signatureExpiresIn', {
              min: SIGNATURE_EXPIRES_MIN,
              max: SIGNATURE_EXPIRES_MAX,
            })}
            error={error('signatureExpiresIn')}
            onChange={(event) => change({ signatureExpiresIn: event.target.value })}
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
