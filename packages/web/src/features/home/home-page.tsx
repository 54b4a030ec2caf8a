/**
 * Home (spec §2): write a text share (Markdown or plain text) and share it. Visitors who may not
 * create (signed out, or a key without the text permission) see a notice with a sign-in link and
 * can still write; the editor's draft is kept locally either way.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PasteFormat } from '@cubby/shared';
import { Alert } from '../../components/alert.tsx';
import { paths } from '../../config/paths.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { useAuthStore } from '../auth/index.ts';
import { useCanCreatePaste, type CreatedPaste } from '../pastes/index.ts';
import { PasteComposer } from './components/paste-composer.tsx';
import { ShareResult } from './components/share-result.tsx';

export default function HomePage() {
  const { t } = useTranslation();
  usePageTitle(t('titles.home'));
  const canCreate = useCanCreatePaste();
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const [result, setResult] = useState<{
    created: CreatedPaste;
    content: string;
    format: PasteFormat;
  } | null>(null);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-fg">{t('home.heading')}</h1>
        <p className="mt-1 text-sm text-fg-muted">{t('home.description')}</p>
      </div>
      {!canCreate && (
        <Alert tone="warning" testId="create-notice">
          <p>{signedIn ? t('home.notice.keyWithoutText') : t('home.notice.signedOut')}</p>
          <Link
            to={paths.admin.getHref()}
            className="mt-1 inline-block font-medium underline underline-offset-2"
          >
            {signedIn ? t('home.notice.switchAccount') : t('home.notice.signIn')}
          </Link>
        </Alert>
      )}
      {result ? (
        <ShareResult {...result} onNew={() => setResult(null)} />
      ) : (
        <PasteComposer
          canCreate={canCreate}
          onCreated={(created, content, format) => setResult({ created, content, format })}
        />
      )}
    </div>
  );
}
