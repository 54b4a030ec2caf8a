/**
 * A size typed as a number and a unit (KB, MB, GB), as the upload limit and storage quotas are
 * entered. The hint and the error sit under the number.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SIZE_UNITS, type SizeUnit } from '@cubby/shared';
import { SelectField, TextField } from '../../../../components/form-field.tsx';

export interface SizeFieldProps {
  label: ReactNode;
  name: string;
  value: string;
  unit: SizeUnit;
  onChange(value: string): void;
  onUnitChange(unit: SizeUnit): void;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  placeholder?: string;
}

export function SizeField({ label, name, value, unit, onChange, onUnitChange, ...field }: SizeFieldProps) {
  const { t } = useTranslation();
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_6rem] items-start gap-2">
      <TextField
        label={label}
        name={name}
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...field}
      />
      <SelectField
        label={t('admin.settings.uploads.unit')}
        name={`${name}Unit`}
        value={unit}
        onChange={(event) => onUnitChange(event.target.value as SizeUnit)}
      >
        {SIZE_UNITS.map((option) => (
          <option key={option} value={option}>
            {t(`admin.settings.uploads.units.${option}`)}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
