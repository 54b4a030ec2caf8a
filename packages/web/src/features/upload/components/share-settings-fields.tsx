/**
 * The settings the next uploads get: storage, link suffix, sub-folder, remark, password, expiry
 * and max views, each with its inline error (docs/product.md §5).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SLUG_MAX, type StorageConfigView } from '@cubby/shared';
import { SelectField, TextField } from '../../../components/form-field.tsx';
import { useStorageConfigName } from '../../../lib/i18n/storage-config-name.ts';
import {
  ExpiryField,
  MaxViewsField,
  PasswordField,
  RemarkField,
  SlugField,
  useExpiryPresetLabels,
} from '../../shares/index.ts';
import {
  EXPIRY_CHOICES,
  MAX_EXPIRY_HOURS,
  type ExpiryChoice,
  type UploadErrors,
  type UploadSettingsValues,
} from '../upload-form.ts';

export interface ShareSettingsFieldsProps {
  values: UploadSettingsValues;
  errors: UploadErrors;
  onChange(patch: Partial<UploadSettingsValues>): void;
  configs: readonly StorageConfigView[];
  configId: string | null;
  onConfigChange(id: string): void;
  /** The caller may use no storage at all (not merely: not loaded). */
  noStorage: boolean;
  disabled: boolean;
}

/**
 * A share's own settings — link suffix, remark, password, expiry (a preset or hours) and view
 * limit — with their inline errors; the upload page's settings and the explorer's "Share…" use them.
 */
export function ShareLinkFields({
  values,
  errors,
  onChange,
  afterSlug,
}: Pick<ShareSettingsFieldsProps, 'values' | 'errors' | 'onChange'> & {
  /** Fields that go between the link suffix and the rest (the upload page's sub-folder). */
  afterSlug?: ReactNode;
}) {
  const { t } = useTranslation();
  const error = (field: keyof UploadErrors) => {
    const key = errors[field];
    return key ? t(key, { max: SLUG_MAX }) : null;
  };
  const presetLabels = useExpiryPresetLabels();
  const expiryLabels: Record<ExpiryChoice, string> = {
    ...presetLabels,
    custom: t('upload.settings.customHoursChoice'),
  };
  return (
    <>
      <SlugField
        value={values.slug}
        hint={t('upload.settings.slugHint', { max: SLUG_MAX })}
        error={error('slug')}
        onChange={(slug) => onChange({ slug })}
      />
      {afterSlug}
      <RemarkField
        value={values.remark}
        error={error('remark')}
        onChange={(remark) => onChange({ remark })}
      />
      <PasswordField
        value={values.password}
        hint={t('upload.settings.passwordHint')}
        error={error('password')}
        onChange={(password) => onChange({ password })}
      />
      <ExpiryField
        value={values.expiry}
        choices={EXPIRY_CHOICES}
        labels={expiryLabels}
        onChange={(expiry) => onChange({ expiry })}
      />
      {values.expiry === 'custom' && (
        <TextField
          label={t('upload.settings.customHours')}
          name="customHours"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_EXPIRY_HOURS}
          step={1}
          value={values.customHours}
          error={error('customHours')}
          onChange={(event) => onChange({ customHours: event.target.value })}
        />
      )}
      <MaxViewsField
        value={values.maxViews}
        error={error('maxViews')}
        onChange={(maxViews) => onChange({ maxViews })}
      />
    </>
  );
}

export function ShareSettingsFields({
  values,
  errors,
  onChange,
  configs,
  configId,
  onConfigChange,
  noStorage,
  disabled,
}: ShareSettingsFieldsProps) {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  const pathError = errors.path ? t(errors.path) : null;

  return (
    <fieldset disabled={disabled} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
      <SelectField
        label={t('upload.settings.storage')}
        name="storage"
        value={configId ?? ''}
        hint={noStorage ? t('upload.settings.noStorage') : t('upload.settings.storageHint')}
        onChange={(event) => onConfigChange(event.target.value)}
        className="sm:col-span-2 lg:col-span-1"
      >
        {configs.map((config) => (
          <option key={config.id} value={config.id} data-user-content="">
            {config.is_default === 1
              ? t('upload.settings.defaultStorage', { name: storageName(config.name) })
              : storageName(config.name)}
          </option>
        ))}
      </SelectField>
      <ShareLinkFields
        values={values}
        errors={errors}
        onChange={onChange}
        afterSlug={
          <TextField
            label={t('upload.settings.path')}
            name="path"
            value={values.path}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            placeholder={t('upload.settings.pathPlaceholder')}
            hint={t('upload.settings.pathHint')}
            error={pathError}
            onChange={(event) => onChange({ path: event.target.value })}
          />
        }
      />
    </fieldset>
  );
}
