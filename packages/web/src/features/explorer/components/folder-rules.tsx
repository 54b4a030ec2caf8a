/**
 * What folder rules show in the explorer (docs/architecture.md, "Folder rules"): the folder's README
 * above and below its listing (Markdown, rendered and sanitised as pastes are), and the small form
 * a password folder asks with (the share password form, SharePasswordGate). The server hides names and checks passwords; the explorer only asks
 * for the password and remembers the token for the visit (lib/api/path-tokens.ts).
 */
import type { FsPathPasswordAnswer } from '@cubby/shared';
import { useTranslation } from 'react-i18next';
import { api, isApiError, rememberPathToken } from '../../../lib/api/index.ts';
import { MarkdownView } from '../../../lib/markdown/markdown-view.tsx';
import { SharePasswordGate } from '../../file-view/index.ts';

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
  return (
    <SharePasswordGate
      heading="h2"
      title={t('explorer.folderPassword.title')}
      description={t('explorer.folderPassword.description')}
      name={path}
      verify={async (password) => {
        const answer = await api.post<FsPathPasswordAnswer>('/fs/meta/password/verify', { path, password });
        if (answer.token) rememberPathToken(answer.path, answer.token);
      }}
      onUnlocked={onOpened}
    />
  );
}
