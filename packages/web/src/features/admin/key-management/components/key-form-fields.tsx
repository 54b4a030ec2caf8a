/**
 * The fields of the create and edit dialogs: name, permissions (the mount permission says whether
 * the key's uploads into mounts are published as share links, per the settings), base path (typed,
 * or chosen by browsing the folders of the mounts) and expiry.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, SelectField, TextField } from '../../../../components/form-field.tsx';
import { useUploadShares } from '../../../upload/index.ts';
import {
  EXPIRY_CHOICES,
  MAX_CUSTOM_DAYS,
  type ExpiryChoice,
  type KeyFormErrors,
  type KeyFormValues,
} from '../key-form.ts';
import { BasePathPicker, BrowseButton } from './base-path-picker.tsx';

export interface KeyFormFieldsProps {
  values: KeyFormValues;
  errors: KeyFormErrors;
  /** Server messages for fields (already translated by the server). */
  serverErrors?: Partial<Record<keyof KeyFormErrors, string>>;
  onChange(patch: Partial<KeyFormValues>): void;
  /** Adds the "keep current expiry" choice and a line saying what the current expiry is. */
  currentExpiry?: string;
}

export function KeyFormFields({
  values,
  errors,
  serverErrors = {},
  onChange,
  currentExpiry,
}: KeyFormFieldsProps) {
  const { t } = useTranslation();
  const [browsing, setBrowsing] = useState(false);
  const shares = useUploadShares();
  const mountUploads = !shares
    ? null
    : shares.fs && shares.webdav
      ? t('keys.permissions.mountUploads.both')
      : shares.fs
        ? t('keys.permissions.mountUploads.fsOnly')
        : shares.webdav
          ? t('keys.permissions.mountUploads.webdavOnly')
          : t('keys.permissions.mountUploads.neither');
  const errorText = (field: keyof KeyFormErrors) => {
    const key = errors[field];
    return key ? t(key) : (serverErrors[field] ?? null);
  };
  const expiryLabels: Record<ExpiryChoice, string> = {
    keep: t('keys.expiry.keep'),
    '1d': t('keys.expiry.oneDay'),
    '7d': t('keys.expiry.sevenDays'),
    '30d': t('keys.expiry.thirtyDays'),
    never: t('keys.expiry.never'),
    custom: t('keys.expiry.custom'),
  };
  const choices: ExpiryChoice[] =
    currentExpiry !== undefined ? ['keep', ...EXPIRY_CHOICES] : [...EXPIRY_CHOICES];

  return (
    <div className="space-y-4">
      <TextField
        label={t('keys.fields.name')}
        name="name"
        value={values.name}
        maxLength={50}
        autoComplete="off"
        required
        error={errorText('name')}
        onChange={(event) => onChange({ name: event.target.value })}
      />
      <fieldset className="space-y-2">
        <legend className="mb-1.5 text-sm font-medium text-fg">{t('keys.fields.permissions')}</legend>
        <Checkbox
          label={t('keys.permissions.text')}
          description={t('keys.permissions.textDescription')}
          checked={values.text}
          onChange={(event) => onChange({ text: event.target.checked })}
        />
        <Checkbox
          label={t('keys.permissions.file')}
          description={t('keys.permissions.fileDescription')}
          checked={values.file}
          onChange={(event) => onChange({ file: event.target.checked })}
        />
        <Checkbox
          label={t('keys.permissions.mount')}
          description={
            <>
              {t('keys.permissions.mountDescription')}
              {mountUploads && (
                <span className="mt-0.5 block" data-testid="mount-upload-note">
                  {mountUploads}
                </span>
              )}
            </>
          }
          checked={values.mount}
          onChange={(event) => onChange({ mount: event.target.checked })}
        />
      </fieldset>
      <TextField
        label={t('keys.fields.basePath')}
        name="basePath"
        value={values.basePath}
        hint={t('keys.hints.basePath')}
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
        error={errorText('basePath')}
        onChange={(event) => onChange({ basePath: event.target.value })}
        addon={
          <BrowseButton
            label={t('keys.picker.openAction')}
            onClick={() => setBrowsing(true)}
            testId="browse-base-path"
          />
        }
      />
      {browsing && (
        <BasePathPicker
          value={values.basePath}
          onChoose={(basePath) => onChange({ basePath })}
          onClose={() => setBrowsing(false)}
        />
      )}
      <SelectField
        label={t('keys.fields.expiry')}
        name="expiry"
        value={values.expiry}
        hint={
          currentExpiry !== undefined ? t('keys.hints.currentExpiry', { value: currentExpiry }) : undefined
        }
        error={errorText('expiry')}
        onChange={(event) => onChange({ expiry: event.target.value as ExpiryChoice })}
      >
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {expiryLabels[choice]}
          </option>
        ))}
      </SelectField>
      {values.expiry === 'custom' && (
        <TextField
          label={t('keys.fields.customDays')}
          name="customDays"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_CUSTOM_DAYS}
          step={1}
          required
          value={values.customDays}
          hint={t('keys.hints.customDays', { max: MAX_CUSTOM_DAYS })}
          error={errorText('customDays')}
          onChange={(event) => onChange({ customDays: event.target.value })}
        />
      )}
    </div>
  );
}
