/**
 * A shared file, /file/:slug (docs/product.md §2): its details (reading them counts no view), the password
 * form when it is protected — the unlocked details carry URLs with a short-lived token and stay in
 * this page only — and the pages for unknown (404), expired or used-up (410) links. Heavy previews
 * (text, Markdown, highlighting) are lazy chunks.
 */
import type { FileShare } from '@cubby/shared';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/spinner.tsx';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { usePublicFile } from './api/file-share-api.ts';
import { FileDetails } from './components/file-details.tsx';
import { FilePasswordGate } from './components/file-password-gate.tsx';
import { FileUnavailable } from './components/file-unavailable.tsx';

export default function FileViewPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  usePageTitle(t('titles.file'));
  const query = usePublicFile(slug);
  const [unlocked, setUnlocked] = useState<FileShare | null>(null);

  if (query.isPending) return <PageLoading />;
  if (query.isError) return <FileUnavailable error={query.error} onRetry={() => void query.refetch()} />;
  const opened = unlocked?.slug === slug ? unlocked : null;
  if (!opened && query.data.requires_password) {
    return <FilePasswordGate file={query.data} onUnlocked={setUnlocked} />;
  }
  return <FileDetails key={slug} file={opened ?? query.data} isProtected={query.data.requires_password} />;
}
