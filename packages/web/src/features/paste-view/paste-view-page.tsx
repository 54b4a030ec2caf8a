/**
 * View of a shared text, /paste/:slug (docs/product.md §2). The paste is fetched once per page view (each
 * read counts a view); a protected one asks for its password first (a form loaded only then).
 * After its creator edits it in place, the page shows the saved record from management, which
 * counts no view.
 */
import { lazy, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { PasteDetail } from '@cubby/shared';
import { PageLoading } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { pasteKeys, toPasteView, usePasteView } from '../pastes/index.ts';
import { PasteReader } from './components/paste-reader.tsx';
import { PasteUnavailable } from './components/paste-unavailable.tsx';

// Only a protected paste needs the form (and its mutation): a chunk of its own, shown after the
// layout's loading state.
const PasswordGate = lazy(() =>
  import('./components/password-gate.tsx').then((module) => ({ default: module.PasswordGate })),
);

export default function PasteViewPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  usePageTitle(t('titles.paste'));
  const view = usePasteView(slug);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState<{ slug: string; value: string } | null>(null);

  if (view.isPending) return <PageLoading />;
  if (view.isError) return <PasteUnavailable error={view.error} onRetry={() => void view.refetch()} />;
  const paste = view.data;
  if (paste.content === undefined) {
    return <PasswordGate slug={slug} onUnlocked={(value) => setPassword({ slug, value })} />;
  }

  const onEdited = (detail: PasteDetail) => {
    queryClient.setQueryData(pasteKeys.view(detail.slug), toPasteView(detail));
    // The typed password may no longer be the paste's; the raw link then works without it or not.
    setPassword(null);
    if (detail.slug !== slug) void navigate(paths.paste.getHref(detail.slug), { replace: true });
  };

  return (
    <PasteReader
      key={slug}
      paste={{ ...paste, content: paste.content }}
      password={password?.slug === slug ? password.value : undefined}
      onEdited={onEdited}
    />
  );
}
