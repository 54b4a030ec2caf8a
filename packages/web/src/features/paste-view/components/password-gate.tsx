/**
 * The password form of a protected paste. A wrong password says so (without signing anyone out);
 * after too many wrong guesses the server answers 429 and the form waits out `Retry-After`.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage, isApiError } from '../../../lib/api/index.ts';
import { useErrorFocus } from '../../../lib/forms/use-error-focus.ts';
import { useUnlockPaste } from '../../pastes/index.ts';

export function PasswordGate({ slug, onUnlocked }: { slug: string; onUnlocked(password: string): void }) {
  const { t } = useTranslation();
  const unlock = useUnlockPaste();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = waitUntil === null ? 0 : Math.max(0, Math.ceil((waitUntil - now) / 1000));

  useEffect(() => {
    if (waitUntil === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= waitUntil) {
        setWaitUntil(null);
        setError(null);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [waitUntil]);

  const { errorScope, focusFirstError } = useErrorFocus();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (password === '') {
      setFieldError(t('pasteView.password.required'));
      focusFirstError();
      return;
    }
    unlock.mutate(
      { slug, password },
      {
        onSuccess: () => onUnlocked(password),
        onError: (caught) => {
          if (isApiError(caught) && caught.status === 429) {
            const seconds = caught.retryAfterSeconds ?? 60;
            setNow(Date.now());
            setWaitUntil(Date.now() + seconds * 1000);
            return;
          }
          setError(errorMessage(caught));
        },
      },
    );
  };

  return (
    <div className="mx-auto max-w-md">
      <Card title={t('pasteView.password.title')} as="h1" description={t('pasteView.password.description')}>
        <form
          ref={errorScope}
          onSubmit={onSubmit}
          noValidate
          className="space-y-4"
          data-testid="password-gate"
        >
          <TextField
            label={t('pasteView.password.label')}
            type="password"
            name="password"
            autoComplete="off"
            autoFocus
            value={password}
            error={fieldError}
            onChange={(event) => {
              setPassword(event.target.value);
              setFieldError(null);
            }}
          />
          {secondsLeft > 0 ? (
            <Alert tone="warning" testId="password-rate-limited">
              {t('pasteView.password.rateLimited', { count: secondsLeft })}
            </Alert>
          ) : (
            error && (
              <Alert tone="error" testId="password-error">
                {error}
              </Alert>
            )
          )}
          <Button type="submit" className="w-full" disabled={unlock.isPending || secondsLeft > 0}>
            {unlock.isPending && <Spinner className="size-4 text-accent-fg" />}
            {t('pasteView.password.submit')}
          </Button>
        </form>
      </Card>
    </div>
  );
}
