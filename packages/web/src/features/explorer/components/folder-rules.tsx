/**
 * What folder rules show in the explorer (docs/architecture.md, "Folder rules"): the folder's README
 * above and below its listing (Markdown, rendered and sanitised as pastes are), and the small form
 * a password folder asks with. The server hides names and checks passwords; the explorer only asks
 * for the password and remembers the token for the visit (lib/api/path-tokens.ts).
 */
import type { FsPathPasswordAnswer } from '@cubby/shared';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { api, errorMessage, isApiError, rememberPathToken } from '../../../lib/api/index.ts';
import { useErrorFocus } from '../../../lib/forms/use-error-focus.ts';
import { MarkdownView } from '../../../lib/markdown/markdown-view.tsx';

/** The code of a listing a folder password closes (the server's FS_PATH_PASSWORD_REQUIRED). */
export const PASSWORD_REQUIRED = 'FS_PATH_PASSWORD_REQUIRED';

/** The folder whose password an error asks for, or null when it asks for none. */
export function passwordFolderOf(error: unknown): string | null {
  if (!isApiError(error) || error.code !== PASSWORD_REQUIRED) return null;
  const path = error.data?.['path'];
  return typeof path === 'string' ? path : null;
}

export function FolderReadme({ markdown, testId }: { markdown: string | null | undefined; testId: string }) {
  if (!markdown) return null;
  return (
    <section className="rounded-xl border border-border bg-surface p-4 shadow-card" data-testid={testId}>
      <MarkdownView content={markdown} />
    </section>
  );
}

export function FolderPasswordForm({ path, onOpened }: { path: string; onOpened(): void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<{ tone: 'error' | 'field'; text: string } | null>(null);
  const [lockedFor, setLockedFor] = useState(0);
  const [pending, setPending] = useState(false);
  const { errorScope, focusFirstError } = useErrorFocus();

  useEffect(() => {
    if (lockedFor <= 0) return;
    const timer = setTimeout(() => setLockedFor((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [lockedFor]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setMessage({ tone: 'field', text: t('explorer.folderPassword.required') });
      focusFirstError();
      return;
    }
    setMessage(null);
    setPending(true);
    try {
      const answer = await api.post<FsPathPasswordAnswer>('/fs/meta/password/verify', { path, password });
      if (answer.token) rememberPathToken(answer.path, answer.token);
      onOpened();
    } catch (error) {
      if (isApiError(error) && error.status === 429) setLockedFor(error.retryAfterSeconds ?? 60);
      else setMessage({ tone: 'error', text: errorMessage(error) });
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="mx-auto max-w-md">
      <Card title={t('explorer.folderPassword.title')} description={t('explorer.folderPassword.description')}>
        <p className="mb-4 truncate text-sm font-medium text-fg" data-user-content="" title={path}>
          {path}
        </p>
        <form
          ref={errorScope}
          onSubmit={(event) => void submit(event)}
          noValidate
          className="space-y-4"
          data-testid="folder-password-form"
        >
          <TextField
            label={t('explorer.folderPassword.label')}
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
            <Alert tone="warning" testId="folder-password-rate-limited">
              {t('explorer.folderPassword.rateLimited', { count: lockedFor })}
            </Alert>
          ) : (
            message?.tone === 'error' && (
              <Alert tone="error" testId="folder-password-error">
                {message.text}
              </Alert>
            )
          )}
          <Button type="submit" className="w-full" disabled={pending || lockedFor > 0}>
            {pending && <Spinner className="size-4 text-accent-fg" />}
            {t('explorer.folderPassword.submit')}
          </Button>
        </form>
      </Card>
    </div>
  );
}
