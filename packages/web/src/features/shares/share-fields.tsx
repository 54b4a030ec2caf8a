/**
 * The settings fields every share has — text shares (create and edit) and file shares (upload,
 * edit) alike: remark, link suffix, password, max views, and the names of the preset expiries.
 * Each field takes its value and error and reports the new text.
 */
import { useTranslation } from 'react-i18next';
import { Checkbox, SelectField, TextField } from '../../components/form-field.tsx';

interface ShareFieldProps {
  value: string;
  error: string | null;
  onChange(value: string): void;
}

export function RemarkField({
  value,
  error,
  onChange,
  placeholder,
}: ShareFieldProps & { placeholder?: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('pastes.fields.remark')}
      name="remark"
      value={value}
      maxLength={500}
      autoComplete="off"
      placeholder={placeholder}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

export function SlugField({ value, error, onChange, hint }: ShareFieldProps & { hint: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('pastes.fields.slug')}
      name="slug"
      value={value}
      autoComplete="off"
      spellCheck={false}
      className="font-mono"
      placeholder={t('pastes.placeholders.slug')}
      hint={hint}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** A new password for the share (never the current one: that is only ever stored hashed). */
export function PasswordField({
  value,
  error,
  onChange,
  label,
  hint,
  disabled,
}: ShareFieldProps & { label?: string; hint: string; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={label ?? t('pastes.fields.password')}
      name="password"
      type="password"
      autoComplete="new-password"
      value={value}
      disabled={disabled}
      hint={hint}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/**
 * The password of an edit form: a new one, and — for a share that has one — removing it instead
 * (which empties and disables the new one). Without a current password it is the plain field.
 */
export function PasswordChange({
  password,
  clearPassword,
  hasPassword,
  hint,
  error,
  onChange,
}: {
  password: string;
  clearPassword: boolean;
  hasPassword: boolean;
  /** What a new password does when the share has none. */
  hint: string;
  error: string | null;
  onChange(change: { password: string; clearPassword?: boolean }): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2">
      <PasswordField
        label={hasPassword ? t('pastes.fields.newPassword') : undefined}
        value={password}
        disabled={clearPassword}
        hint={hasPassword ? t('pastes.hints.passwordKeep') : hint}
        error={error}
        onChange={(value) => onChange({ password: value })}
      />
      {hasPassword && (
        <Checkbox
          label={t('pastes.fields.clearPassword')}
          name="clearPassword"
          checked={clearPassword}
          onChange={(event) => onChange({ clearPassword: event.target.checked, password: '' })}
        />
      )}
    </div>
  );
}

/** Views before the share stops opening; empty or 0 is unlimited. */
export function MaxViewsField({ value, error, onChange }: ShareFieldProps) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('pastes.fields.maxViews')}
      name="maxViews"
      type="number"
      inputMode="numeric"
      min={0}
      step={1}
      value={value}
      placeholder="0"
      hint={t('pastes.hints.maxViews')}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** When the share stops opening: one of `choices` (named by `labels`). */
export function ExpiryField<C extends string>({
  value,
  choices,
  labels,
  hint,
  error,
  onChange,
}: {
  value: C;
  choices: readonly C[];
  labels: Record<C, string>;
  hint?: string;
  error?: string | null;
  onChange(choice: C): void;
}) {
  const { t } = useTranslation();
  return (
    <SelectField
      label={t('pastes.fields.expiry')}
      name="expiry"
      value={value}
      hint={hint}
      error={error}
      onChange={(event) => onChange(event.target.value as C)}
    >
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {labels[choice]}
        </option>
      ))}
    </SelectField>
  );
}

/** The names of the expiry presets both share kinds offer. */
export function useExpiryPresetLabels() {
  const { t } = useTranslation();
  return {
    '1h': t('pastes.expiry.oneHour'),
    '1d': t('pastes.expiry.oneDay'),
    '7d': t('pastes.expiry.sevenDays'),
    '30d': t('pastes.expiry.thirtyDays'),
    never: t('pastes.expiry.never'),
  };
}
