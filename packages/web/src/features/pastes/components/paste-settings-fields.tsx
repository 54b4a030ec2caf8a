/**
 * The settings of a text share: remark, link suffix, password (set, or in the edit form also
 * remove), expiry (presets or a custom date and time) and max views, each with its inline error.
 */
import { useTranslation } from 'react-i18next';
import { SLUG_MAX } from '@cubby/shared';
import { TextField } from '../../../components/form-field.tsx';
import { EXPIRY_CHOICES, toDateTimeLocal, type ExpiryChoice } from '../paste-form.ts';
import {
  ExpiryField,
  MaxViewsField,
  PasswordChange,
  RemarkField,
  SlugField,
  useExpiryPresetLabels,
} from '../../shares/index.ts';
import type { PasteFormState } from './use-paste-form.ts';

export interface PasteSettingsFieldsProps {
  form: PasteFormState;
  /** Edit form: "keep current expiry" choice and the current one shown, password removal. */
  edit?: { currentExpiry: string; hasPassword: boolean };
  /** What a new password protects, when the share is not a text (e.g. a file share). */
  passwordHint?: string;
}

export function PasteSettingsFields({ form, edit, passwordHint }: PasteSettingsFieldsProps) {
  const { t } = useTranslation();
  const { values, change } = form;
  const error = (field: Parameters<PasteFormState['fieldError']>[0]) =>
    form.fieldError(field, (key) => t(key));
  const presetLabels = useExpiryPresetLabels();
  const labels: Record<ExpiryChoice, string> = {
    keep: t('pastes.expiry.keep'),
    ...presetLabels,
    custom: t('pastes.expiry.custom'),
  };
  const choices: ExpiryChoice[] = edit ? ['keep', ...EXPIRY_CHOICES] : [...EXPIRY_CHOICES];

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <RemarkField
        value={values.remark}
        placeholder={t('pastes.placeholders.remark')}
        error={error('remark')}
        onChange={(remark) => change({ remark })}
      />
      <SlugField
        value={values.slug}
        hint={
          edit ? t('pastes.hints.slugEdit', { max: SLUG_MAX }) : t('pastes.hints.slug', { max: SLUG_MAX })
        }
        error={error('slug')}
        onChange={(slug) => change({ slug })}
      />
      <PasswordChange
        password={values.password}
        clearPassword={values.clearPassword}
        hasPassword={edit?.hasPassword ?? false}
        hint={passwordHint ?? t('pastes.hints.password')}
        error={error('password')}
        onChange={change}
      />
      <MaxViewsField
        value={values.maxViews}
        error={error('maxViews')}
        onChange={(maxViews) => change({ maxViews })}
      />
      <ExpiryField
        value={values.expiry}
        choices={choices}
        labels={labels}
        hint={edit ? t('pastes.hints.currentExpiry', { value: edit.currentExpiry }) : undefined}
        error={error('expiry')}
        onChange={(expiry) => {
          // Start a custom date one day ahead, so the field is valid until the user changes it.
          const customExpiry =
            expiry === 'custom' && values.customExpiry === ''
              ? toDateTimeLocal(new Date(Date.now() + 86_400_000))
              : values.customExpiry;
          change({ expiry, customExpiry });
        }}
      />
      {values.expiry === 'custom' && (
        <TextField
          label={t('pastes.fields.customExpiry')}
          name="customExpiry"
          type="datetime-local"
          required
          value={values.customExpiry}
          error={error('customExpiry')}
          onChange={(event) => change({ customExpiry: event.target.value })}
        />
      )}
    </div>
  );
}
