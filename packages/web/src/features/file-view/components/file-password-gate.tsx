/**
 * The password form of a protected share (a file, a folder, a bundle: `SharePasswordGate`). The right
 * password answers the share's details with a short-lived token; a wrong one says so; after too
 * many guesses the server answers 429 and the form waits out `Retry-After` (counting down).
 */
import type { FileShare } from '@cubby/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage, isApiError } from '../../../lib/api/index.ts';
import { useErrorFocus } from '../../../lib/forms/use-error-focus.ts';
import { verifyFilePassword } from '../api/file-share-api.ts';

export function FilePasswordGate({
  file,
  onUnlocked,
}: {
  file: FileShare;
  onUnlocked(unlocked: FileShare): void;
}) {
  const { t } = useTranslation();
  return (
    <SharePasswordGate
      title={t('fileView.password.title')}
      name={file.filename}
      verify={(password) => verifyFilePassword({ slug: file.slug, password })}
      onUnlocked={onUnlocked}
    />
  );
}

export function SharePasswordGate<T>({
  title,
  description,
  name,
  verify: check,
  onUnlocked,
  heading = 'h1',
}: {
  title: string;
  /** h2 where the page around the form has its own h1 (the explorer). */
  heading?: 'h1' | 'h2';
  /** What the password opens; a file's words unless given. */
  description?: string;
  /** The share's name, shown above the form; none when the share has none yet. */
  name?: string | null | undefined;
  verify(password: string): Promise<T>;
  onUnlocked(unlocked: T): void;
}) {
  const { t } = useTranslation();
  const verify = useMutation({ mutationFn: check, gcTime: 0 });
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<{ tone: 'error' | 'field'; text: string } | null>(null);
  const [lockedFor, setLockedFor] = useState(0);

  useEffect(() => {
    if (lockedFor <= 0) return;
    const timer = setTimeout(() => setLockedFor((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [lockedFor]);

  const { errorScope, focusFirstError } = useErrorFocus();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setMessage({ tone: 'field', text: t('fileView.password.required') });
      focusFirstError();
      return;
    }
    setMessage(null);
    verify.mutate(password, {
      onSuccess: onUnlocked,
      onError: (error) => {
        if (isApiError(error) && error.status === 429) setLockedFor(error.retryAfterSeconds ?? 60);
        else setMessage({ tone: 'error', text: errorMessage(error) });
      },
    });
  };

  return (
    <div className="mx-auto max-w-md">
      <Card title={title} as={heading} description={description ?? t('fileView.password.description')}>
        {name && (
          <p className="mb-4 truncate text-sm font-medium text-fg" data-user-content="" title={name}>
            {name}
          </p>
        )}
        <form
          ref={errorScope}
          onSubmit={submit}
          noValidate
          className="space-y-4"
          data-testid="file-password-gate"
        >
          <TextField
            label={t('fileView.password.label')}
            type="password"
            name="password"
            autoComplete="off"
            autoFocus
            value={password}
            error={message?.tone === 'field' ? message.text : null}
            onChange={(event) => {
              setPassword(event.target.value);
              if (message?.tone === 'field') setMessage(null);
            }}
          />
          {lockedFor > 0 ? (
            <Alert tone="warning" testId="file-password-rate-limited">
              {t('fileView.password.rateLimited', { count: lockedFor })}
            </Alert>
          ) : (
            message?.tone === 'error' && (
              <Alert tone="error" testId="file-password-error">
                {message.text}
              </Alert>
            )
          )}
          <Button type="submit" className="w-full" disabled={verify.isPending || lockedFor > 0}>
            {verify.isPending && <Spinner className="size-4 text-accent-fg" />}
            {t('fileView.password.submit')}
          </Button>
        </form>
      </Card>
    </div>
  );
}
