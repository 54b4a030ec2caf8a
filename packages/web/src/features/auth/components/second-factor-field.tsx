/**
 * The field for a second factor (docs/accounts.md "Two-factor sign-in"): a 6-digit code from the
 * authenticator app (numeric keyboard, the browser's one-time-code autofill) or, after a switch, a
 * recovery code. Used by the login's second step and by My account (the first code, turning it off,
 * new recovery codes); `useSecondFactorInput` keeps what was typed and says what is plainly wrong.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/form-field.tsx';
import type { SecondFactor } from '../api/admin-login.ts';
import { secondFactorProblem, toSecondFactor, type SecondFactorKind } from '../second-factor.ts';

export interface SecondFactorFieldProps {
  kind: SecondFactorKind;
  value: string;
  error: string | null;
  onKindChange: (kind: SecondFactorKind) => void;
  onChange: (value: string) => void;
}

/** What was typed, the field's props, and `take()`: the factor to send, or null (the field then says why). */
export function useSecondFactorInput(onKindChange?: () => void, initial: SecondFactorKind = 'otp') {
  const { t } = useTranslation();
  const [kind, setKind] = useState<SecondFactorKind>(initial);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const field: SecondFactorFieldProps = {
    kind,
    value,
    error,
    onKindChange: (next) => {
      setKind(next);
      setValue('');
      setError(null);
      onKindChange?.();
    },
    onChange: (next) => {
      setValue(next);
      setError(null);
    },
  };
  return {
    field,
    clear: () => setValue(''),
    take(): SecondFactor | null {
      const problem = secondFactorProblem(kind, value);
      setError(problem && t(problem));
      return problem ? null : toSecondFactor(kind, value);
    },
  };
}

export function SecondFactorField({
  kind,
  value,
  error,
  onKindChange,
  onChange,
  codeOnly = false,
  noCode = false,
  autoFocus,
}: SecondFactorFieldProps & {
  /** Only a code from the app (turning it on), no switch to a recovery code. */
  codeOnly?: boolean;
  /** No authenticator app (a person with passkeys only): a recovery code, no switch to a code. */
  noCode?: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const otp = kind === 'otp';
  return (
    <div className="space-y-2">
      <TextField
        key={kind}
        label={otp ? t('auth.login.twoFactor.code') : t('auth.login.twoFactor.recoveryCode')}
        name={otp ? 'otp' : 'recoveryCode'}
        inputMode={otp ? 'numeric' : 'text'}
        autoComplete={otp ? 'one-time-code' : 'off'}
        autoCapitalize="none"
        spellCheck={false}
        maxLength={otp ? 7 : 40}
        value={value}
        hint={otp ? t('auth.login.twoFactor.codeHint') : t('auth.login.twoFactor.recoveryHint')}
        error={error}
        onChange={(event) => onChange(event.target.value)}
        autoFocus={autoFocus}
        required
        className={otp ? 'font-mono tracking-widest' : 'font-mono'}
      />
      {!codeOnly && !noCode && (
        <button
          type="button"
          className="text-sm font-medium text-accent-text underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
          onClick={() => onKindChange(otp ? 'recovery' : 'otp')}
        >
          {otp ? t('auth.login.twoFactor.useRecovery') : t('auth.login.twoFactor.useCode')}
        </button>
      )}
    </div>
  );
}
