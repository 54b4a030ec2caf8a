/**
 * The fields of the mount dialog: name, storage config (every config, local disk or S3, named with
 * its kind), mount path, cache time, sort order, active, remark. Errors come from the shared rules
 * (translated here) or from the server (already translated).
 */
import { useTranslation } from 'react-i18next';
import {
  CACHE_TTL_MAX,
  LINK_POLICIES,
  type LinkPolicy,
  MOUNT_NAME_MAX,
  MOUNT_PATH_MAX,
  MOUNT_REMARK_MAX,
} from '@cubby/shared';
import { Checkbox, SelectField, TextField } from '../../../../components/form-field.tsx';
import { useStorageConfigName } from '../../../../lib/i18n/storage-config-name.ts';
import type { StorageConfig } from '../../storage-config/api/types.ts';
import { reservedPrefixOf, type MountFormField } from '../mount-form.ts';
import type { MountFormState } from './use-mount-form.ts';

const CODE = { autoComplete: 'off', spellCheck: false, className: 'font-mono' } as const;

export function MountFormFields({
  form,
  configs,
}: {
  form: MountFormState;
  /** The storage configs to choose from. */
  configs: StorageConfig[];
}) {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  const { values, change } = form;
  const error = (field: MountFormField) =>
    form.fieldError(field, (key) => t(key, { prefix: reservedPrefixOf(values.mountPath) }));
  const kind = (config: StorageConfig) => t(`admin.mounts.storageTypes.${config.driver}`);

  return (
    <div className="space-y-4">
      <TextField
        label={t('admin.mounts.fields.name')}
        name="name"
        value={values.name}
        maxLength={MOUNT_NAME_MAX + 10}
        autoComplete="off"
        required
        placeholder={t('admin.mounts.placeholders.name')}
        error={error('name')}
        onChange={(event) => change({ name: event.target.value })}
      />
      <SelectField
        label={t('admin.mounts.fields.storage')}
        name="storageConfigId"
        value={values.storageConfigId}
        required
        hint={t('admin.mounts.hints.storage')}
        error={error('storageConfigId')}
        onChange={(event) => change({ storageConfigId: event.target.value })}
      >
        <option value="">{t('admin.mounts.placeholders.storage')}</option>
        {configs.map((config) => (
          <option key={config.id} value={config.id}>
            {t('admin.mounts.storageOption', { name: storageName(config.name), kind: kind(config) })}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('admin.mounts.fields.path')}
        name="mountPath"
        value={values.mountPath}
        maxLength={MOUNT_PATH_MAX + 10}
        required
        placeholder={t('admin.mounts.placeholders.path')}
        hint={t('admin.mounts.hints.path')}
        error={error('mountPath')}
        onChange={(event) => change({ mountPath: event.target.value })}
        {...CODE}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('admin.mounts.fields.cacheTtl')}
          name="cacheTtl"
          type="number"
          inputMode="numeric"
          min={0}
          max={CACHE_TTL_MAX}
          step={1}
          value={values.cacheTtl}
          hint={t('admin.mounts.hints.cacheTtl', { max: CACHE_TTL_MAX })}
          error={error('cacheTtl')}
          onChange={(event) => change({ cacheTtl: event.target.value })}
        />
        <TextField
          label={t('admin.mounts.fields.sortOrder')}
          name="sortOrder"
          type="number"
          inputMode="numeric"
          step={1}
          value={values.sortOrder}
          hint={t('admin.mounts.hints.sortOrder')}
          error={error('sortOrder')}
          onChange={(event) => change({ sortOrder: event.target.value })}
        />
      </div>
      <SelectField
        label={t('admin.mounts.fields.linkPolicy')}
        name="linkPolicy"
        value={values.linkPolicy}
        hint={t(`admin.mounts.linkPolicyHints.${values.linkPolicy}`)}
        onChange={(event) => change({ linkPolicy: event.target.value as LinkPolicy })}
      >
        {LINK_POLICIES.map((policy) => (
          <option key={policy} value={policy}>
            {t(`admin.mounts.linkPolicies.${policy}`)}
          </option>
        ))}
      </SelectField>
      {values.linkPolicy === 'custom_host' && (
        <TextField
          label={t('admin.mounts.fields.customHost')}
          name="customHost"
          type="url"
          value={values.customHost}
          required
          placeholder="https://cdn.example.com/files"
          hint={t('admin.mounts.hints.customHost')}
          error={error('customHost')}
          onChange={(event) => change({ customHost: event.target.value })}
          {...CODE}
        />
      )}
      <TextField
        label={t('admin.mounts.fields.remark')}
        name="remark"
        value={values.remark}
        maxLength={MOUNT_REMARK_MAX + 10}
        autoComplete="off"
        error={error('remark')}
        onChange={(event) => change({ remark: event.target.value })}
      />
      <Checkbox
        label={t('admin.mounts.fields.active')}
        description={t('admin.mounts.hints.active')}
        name="isActive"
        checked={values.isActive}
        onChange={(event) => change({ isActive: event.target.checked })}
      />
    </div>
  );
}
