/**
 * The fields of the storage config dialogs, rendered from the field list of the chosen provider's
 * storage type (packages/shared/src/storage-fields.ts): no branch per type here, so a new type's
 * form is its field list. The provider's preset decides what it must (a required endpoint, a fixed
 * region, forced path style) and which help shows. On edit the secrets start empty and, where a
 * value is stored, say that empty keeps it, and the provider can only change within the stored type.
 */
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  STORAGE_PROVIDERS,
  storageFields,
  storageProvider,
  type StorageField,
  type StorageFieldSection,
} from '@cubby/shared';
import { Checkbox, SelectField, TextAreaField, TextField } from '../../../../components/form-field.tsx';
import { SizeField } from '../../settings/components/size-field.tsx';
import type { StorageConfig } from '../api/types.ts';
import {
  FORM_KEY,
  presetField,
  type ProviderType,
  type StorageFormField,
  type StorageFormValues,
} from '../storage-form.ts';
import type { StorageFormState } from './use-storage-form.ts';

/** Identifiers, addresses and keys: typed exactly, shown in monospace. */
const CODE = { spellCheck: false, className: 'font-mono' } as const;

const SECTIONS: readonly StorageFieldSection[] = ['general', 'connection', 'options'];

export interface StorageFormFieldsProps {
  form: StorageFormState;
  onProviderChange(providerType: ProviderType): void;
  /** Edit: the stored config (credentials are kept when left empty; the type cannot change). */
  stored?: StorageConfig;
}

export function StorageFormFields({ form, onProviderChange, stored }: StorageFormFieldsProps) {
  const { t } = useTranslation();
  const provider = storageProvider(form.values.providerType);
  const fields = storageFields(provider.type);
  const control = (field: StorageField) => (
    <FieldControl
      key={field.name}
      field={field}
      form={form}
      stored={stored}
      onProviderChange={onProviderChange}
    />
  );

  return (
    <div className="space-y-5">
      {SECTIONS.map((section) => {
        const shown = fields.filter((field) => field.section === section);
        if (shown.length === 0) return null;
        const grid = <div className="grid gap-4 sm:grid-cols-2">{shown.map(control)}</div>;
        if (section === 'general') return <div key={section}>{grid}</div>;
        return (
          <fieldset key={section}>
            <legend className="mb-2 text-sm font-semibold text-fg">
              {t(`admin.storage.sections.${section}`)}
            </legend>
            {grid}
          </fieldset>
        );
      })}
    </div>
  );
}

interface FieldControlProps extends StorageFormFieldsProps {
  field: StorageField;
}

/** One field of the list, as its kind is edited; wide fields take the whole row. */
function FieldControl({ field, form, stored, onProviderChange }: FieldControlProps) {
  const { t } = useTranslation();
  const { values, change } = form;
  const key = FORM_KEY[field.name];
  const provider = storageProvider(values.providerType);
  const preset = presetField(values.providerType, field.name);
  const text = (k: string, options?: Record<string, unknown>) => t(k as ParseKeys, options ?? {});
  const storedFields = stored as Record<string, unknown> | undefined;
  // A WebDAV, SFTP or FTP config says which secrets it has (null: none); S3 ones always have theirs.
  const keep =
    storedFields !== undefined && field.keepHintKey !== undefined && storedFields[field.name] !== null;
  const masked = storedFields?.[`${field.name}_masked`];
  const hint = keep
    ? text(field.keepHintKey!, { masked: masked ?? '—' })
    : text(field.hintByProvider ? `${field.hintKey}.${provider.id}` : field.hintKey, {
        min: field.min,
        max: field.max,
      });
  const required =
    preset.required ?? (field.required === 'create' ? stored === undefined : field.required === true);
  const error = form.fieldError(key as StorageFormField, (k) => t(k));
  const label = text(field.labelKey);
  const wide = field.wide ? 'sm:col-span-2' : undefined;

  if (field.kind === 'select') {
    // The provider: a stored config keeps its type (local stays local, S3 moves between S3 providers).
    const provides = field.name === 'provider_type';
    const options = provides
      ? STORAGE_PROVIDERS.filter((p) => !stored || p.type === provider.type).map((choice) => ({
          value: choice.label,
          labelKey: field.options?.find((o) => o.value === choice.label)?.labelKey ?? choice.label,
        }))
      : (field.options ?? []);
    return (
      <div className={wide}>
        <SelectField
          label={label}
          name={key}
          value={String(values[key])}
          hint={hint}
          disabled={provides && options.length === 1}
          onChange={(event) =>
            provides
              ? onProviderChange(event.target.value as ProviderType)
              : change({ [key]: event.target.value } as Partial<StorageFormValues>)
          }
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {text(option.labelKey)}
            </option>
          ))}
        </SelectField>
      </div>
    );
  }
  if (field.kind === 'boolean') {
    return (
      <div className={wide}>
        <Checkbox
          label={label}
          description={hint}
          name={key}
          checked={preset.fixed === true || Boolean(values[key])}
          disabled={preset.fixed !== undefined}
          onChange={(event) => change({ [key]: event.target.checked } as Partial<StorageFormValues>)}
        />
      </div>
    );
  }
  if (field.kind === 'bytes') {
    return (
      <div className={wide}>
        <SizeField
          label={label}
          name={key}
          value={String(values[key])}
          unit={values.quotaUnit}
          hint={hint}
          error={error}
          onChange={(value) => change({ [key]: value } as Partial<StorageFormValues>)}
          onUnitChange={(quotaUnit) => change({ quotaUnit })}
        />
      </div>
    );
  }
  if (field.multiline) {
    return (
      <div className={wide}>
        <TextAreaField
          label={label}
          name={key}
          value={String(values[key])}
          error={error}
          rows={4}
          hint={hint}
          autoComplete="off"
          onChange={(event) => change({ [key]: event.target.value } as Partial<StorageFormValues>)}
        />
      </div>
    );
  }
  const kindProps =
    field.kind === 'number'
      ? { type: 'number', inputMode: 'numeric', min: field.min, max: field.max, step: 1 }
      : field.kind === 'secret' && !field.visible
        ? { type: 'password', autoComplete: 'new-password', spellCheck: false }
        : {
            type: field.rule === 'url' ? 'url' : 'text',
            autoComplete: 'off',
            maxLength: field.max,
            ...(field.code ? CODE : {}),
          };
  return (
    <div className={wide}>
      <TextField
        label={label}
        name={key}
        value={typeof preset.fixed === 'string' ? preset.fixed : String(values[key])}
        disabled={typeof preset.fixed === 'string'}
        error={error}
        required={required}
        placeholder={
          preset.placeholder ??
          field.placeholder ??
          (field.placeholderKey ? text(field.placeholderKey) : undefined)
        }
        hint={hint}
        onChange={(event) => change({ [key]: event.target.value } as Partial<StorageFormValues>)}
        {...(kindProps as object)}
      />
    </div>
  );
}
