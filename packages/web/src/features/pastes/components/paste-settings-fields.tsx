/**
 * The settings of a text share: remark, link suffix, password (set, or in the edit form also
 * remove), expiry (presets or a custom date and time) and max views, each with its inline error.
 */
import { useTranslation } from 'react-i18next';
import { SLUG_MAX } from '@cubby/shared';
import { Checkbox, SelectField, TextField } from '../../../components/form-field.tsx';
import { EXPIRY_CHOICES, toDateTimeLocal, type ExpiryChoice } from '../paste-form.ts';
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
  const labels: Record<ExpiryChoice, string> = {
    keep: t('pastes.expiry.keep'),
    '1h': t('pastes.expiry.oneHour'),
    '1d': t('pastes.expiry.oneDay'),
    '7d': t('pastes.expiry.sevenDays'),
    '30d': t('pastes.expiry.thirtyDays'),
    never: t('pastes.expiry.never'),
    custom: t('pastes.expiry.custom'),
  };
  const choices: ExpiryChoice[] = edit ? ['keep', ...EXPIRY_CHOICES] : [...EXPIRY_CHOICES];

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label={t('pastes.fields.remark')}
        name="remark"
        value={values.remark}
        maxLength={500}
        autoComplete="off"
        placeholder={t('pastes.placeholders.remark')}
        error={error('remark')}
        onChange={(event) => change({ remark: event.target.value })}
      />
      <TextField
        label={t('pastes.fields.slug')}
        name="slug"
        value={values.slug}
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
        hint={
          edit ? t('pastes.hints.slugEdit', { max: SLUG_MAX }) : t('pastes.hints.slug', { max: SLUG_MAX })
        }
        placeholder={t('pastes.placeholders.slug')}
        error={error('slug')}
        onChange={(event) => change({ slug: event.target.value })}
      />
      <div className="space-y-2">
        <TextField
          label={edit?.hasPassword ? t('pastes.fields.newPassword') : t('pastes.fields.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          disabled={values.clearPassword}
          hint={
            edit?.hasPassword ? t('pastes.hints.passwordKeep') : (passwordHint ?? t('pastes.hints.password'))
          }
          error={error('password')}
          onChange={(event) => change({ password: event.target.value })}
        />
        {edit?.hasPassword && (
          <Checkbox
            label={t('pastes.fields.clearPassword')}
            name="clearPassword"
            checked={values.clearPassword}
            onChange={(event) => change({ clearPassword: event.target.checked, password: '' })}
          />
        )}
      </div>
      <TextField
        label={t('pastes.fields.maxViews')}
        name="maxViews"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={values.maxViews}
        placeholder="0"
        hint={t('pastes.hints.maxViews')}
        error={error('maxViews')}
        onChange={(event) => change({ maxViews: event.target.value })}
      />
      <SelectField
        label={t('pastes.fields.expiry')}
        name="expiry"
        value={values.expiry}
        hint={edit ? t('pastes.hints.currentExpiry', { value: edit.currentExpiry }) : undefined}
        error={error('expiry')}
        onChange={(event) => {
          const expiry = event.target.value as ExpiryChoice;
          // Start a custom date one day ahead, so the field is valid until the user changes it.
          const customExpiry =
            expiry === 'custom' && values.customExpiry === ''
              ? toDateTimeLocal(new Date(Date.now() + 86_400_000))
              : values.customExpiry;
          change({ expiry, customExpiry });
        }}
      >
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {labels[choice]}
          </option>
        ))}
      </SelectField>
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
