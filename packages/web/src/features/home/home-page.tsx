/**
 * Home (docs/product.md §2): write a text share (Markdown or plain text) and share it. Visitors who may not
 * create (signed out, or a key without the text permission) see a notice with a sign-in link and
 * can still write; the editor's draft is kept locally either way.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasteFormat } from '@cubby/shared';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { useAuthStore } from '../auth/index.ts';
import { useCanCreatePaste, type CreatedPaste } from '../pastes/index.ts';
import { PasteComposer } from './components/paste-composer.tsx';
import { ShareResult } from './components/share-result.tsx';
import { AccessNotice } from '../../components/access-notice.tsx';

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
        <AccessNotice
          signedIn={signedIn}
          message={signedIn ? t('home.notice.keyWithoutText') : t('home.notice.signedOut')}
          testId="create-notice"
        />
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
