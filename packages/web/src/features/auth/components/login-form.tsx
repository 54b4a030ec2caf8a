/**
 * The login screen of the admin area (docs/product.md §2): two modes, admin account (username and password)
 * and API key. It also shows why the user was signed out (session expired, key invalid, account
 * updated), as kept by the auth store. A person with two-factor sign-in then gets the code step
 * (TwoFactorStep), which signs in again with the username and password kept here.
 */
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { KeyIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage, isApiError } from '../../../lib/api/index.ts';
import { useErrorFocus } from '../../../lib/forms/use-error-focus.ts';
import { noticeMessageKey, useAuthStore } from '../auth-store.ts';
import { PasskeySignIn } from './passkey-sign-in.tsx';
import { SsoButtons } from './sso-buttons.tsx';
import { TwoFactorStep } from './two-factor-step.tsx';

type Mode = 'admin' | 'apikey';
const MODES: Mode[] = ['admin', 'apikey'];

export function LoginForm() {
  const { t } = useTranslation();
  const notice = useAuthStore((state) => state.notice);
  const [mode, setMode] = useState<Mode>('admin');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [secondStep, setSecondStep] = useState(false);
  const [methods, setMethods] = useState<readonly string[] | undefined>(undefined);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<'username' | 'password' | 'apiKey', string>>>(
    {},
  );
  const tabIds = useId();
  const tabRefs = useRef<Record<Mode, HTMLButtonElement | null>>({ admin: null, apikey: null });

  const selectMode = (next: Mode) => {
    setMode(next);
    setError(null);
    setFieldErrors({});
  };

  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const next = MODES[(MODES.indexOf(mode) + 1) % MODES.length]!;
    selectMode(next);
    tabRefs.current[next]?.focus();
  };

  const { errorScope, focusFirstError } = useErrorFocus();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: typeof fieldErrors = {};
    if (mode === 'admin') {
      if (!username.trim()) missing.username = t('auth.login.usernameRequired');
      if (!password) missing.password = t('auth.login.passwordRequired');
    } else if (!apiKey.trim()) {
      missing.apiKey = t('auth.login.apiKeyRequired');
    }
    setFieldErrors(missing);
    if (Object.keys(missing).length > 0) {
      focusFirstError();
      return;
    }
    setPending(true);
    setError(null);
    try {
      const auth = useAuthStore.getState();
      if (mode === 'admin') await auth.adminLogin(username.trim(), password);
      else await auth.apiKeyLogin(apiKey.trim());
    } catch (caught) {
      if (isApiError(caught) && caught.code === 'TWO_FACTOR_REQUIRED') {
        const offered = caught.data?.['methods'];
        setMethods(
          Array.isArray(offered) ? offered.filter((m): m is string => typeof m === 'string') : undefined,
        );
        setSecondStep(true);
      } else setError(errorMessage(caught));
      setPending(false);
    }
  };

  return (
    <div className="mx-auto w-full max-w-md">
      <div className="mb-6 text-center">
        <span className="mx-auto mb-3 inline-flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent-text">
          <KeyIcon className="size-6" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight text-fg">{t('auth.login.title')}</h1>
        <p className="mt-1 text-sm text-fg-muted">{t('auth.login.subtitle')}</p>
      </div>
      <div className="rounded-xl border border-border bg-surface p-5 shadow-card sm:p-6">
        {notice && (
          <Alert tone="warning" className="mb-4" testId="login-notice">
            {t(noticeMessageKey(notice))}
          </Alert>
        )}
        {secondStep ? (
          <TwoFactorStep
            username={username.trim()}
            password={password}
            onBack={() => setSecondStep(false)}
            methods={methods}
            extra={
              methods === undefined || methods.includes('passkey') ? (
                <PasskeySignIn after={{ username: username.trim(), password }} />
              ) : undefined
            }
          />
        ) : (
          <>
            <div
              role="tablist"
              aria-label={t('auth.login.modes')}
              className="mb-5 grid grid-cols-2 gap-1 rounded-lg bg-surface-sunken p-1"
            >
              {MODES.map((value) => (
                <button
                  key={value}
                  ref={(element) => {
                    tabRefs.current[value] = element;
                  }}
                  type="button"
                  role="tab"
                  id={`${tabIds}-${value}-tab`}
                  aria-selected={mode === value}
                  aria-controls={`${tabIds}-panel`}
                  tabIndex={mode === value ? 0 : -1}
                  onClick={() => selectMode(value)}
                  onKeyDown={onTabKeyDown}
                  className={`rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring ${
                    mode === value ? 'bg-surface text-fg shadow-card' : 'text-fg-muted hover:text-fg'
                  }`}
                >
                  {value === 'admin' ? t('auth.login.adminTab') : t('auth.login.apiKeyTab')}
                </button>
              ))}
            </div>
            <form
              ref={errorScope}
              id={`${tabIds}-panel`}
              role="tabpanel"
              aria-labelledby={`${tabIds}-${mode}-tab`}
              onSubmit={(event) => void onSubmit(event)}
              noValidate
              className="space-y-4"
            >
              {mode === 'admin' ? (
                <>
                  <TextField
                    label={t('auth.login.username')}
                    name="username"
                    autoComplete="username"
                    value={username}
                    onChange={(event) => setUsername(event.target.value)}
                    error={fieldErrors.username}
                    required
                  />
                  <TextField
                    label={t('auth.login.password')}
                    name="password"
                    type="password"
                    autoComplete="current-password"
                    value={password}
                    onChange={(event) => setPassword(event.target.value)}
                    error={fieldErrors.password}
                    required
                  />
                </>
              ) : (
                <TextField
                  label={t('auth.login.apiKey')}
                  name="apiKey"
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  value={apiKey}
                  onChange={(event) => setApiKey(event.target.value)}
                  error={fieldErrors.apiKey}
                  hint={t('auth.login.apiKeyHint')}
                  required
                />
              )}
              {error && (
                <Alert tone="error" testId="login-error">
                  {error}
                </Alert>
              )}
              <Button type="submit" className="w-full" disabled={pending}>
                {pending && <Spinner className="size-4 text-accent-fg" />}
                {pending ? t('auth.login.submitting') : t('auth.login.submit')}
              </Button>
            </form>
            {mode === 'admin' && <PasskeySignIn />}
            <SsoButtons />
          </>
        )}
      </div>
    </div>
  );
}
