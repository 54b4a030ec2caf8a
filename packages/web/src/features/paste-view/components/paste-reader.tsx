/**
 * A paste as its reader sees it: title (its title, remark or link suffix), expiry and views left, actions
 * (copy, raw text, download, QR code of the page, edit for its creator), the outline of a Markdown
 * paste, and the content: Markdown rendered and sanitised, plain text monospaced and wrapped — or,
 * for a multi-file paste, each file with its own copy and raw actions (paste-files.tsx).
 */
import { Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasteDetail, PasteView } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Badge } from '../../../components/badge.tsx';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { PencilIcon } from '../../../components/icons.tsx';
import { QrCode } from '../../../components/qr-code.tsx';
import { downloadText } from '../../../lib/download.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { MarkdownView } from '../../../lib/markdown/markdown-view.tsx';
import type { Heading } from '../../../lib/markdown/render-markdown.ts';
import { EditPasteDialog, pastePageUrl, rawPasteUrl, useCanEditPaste } from '../../pastes/index.ts';
import { PasteFiles } from './paste-files.tsx';
import { PasteOutline } from './paste-outline.tsx';

export interface PasteReaderProps {
  paste: PasteView & { content: string };
  /** The password the reader typed (for the raw link only; never stored). */
  password?: string;
  onEdited(detail: PasteDetail): void;
}

function download(slug: string, content: string, markdown: boolean) {
  downloadText(
    `${slug}.${markdown ? 'md' : 'txt'}`,
    content,
    markdown ? 'text/markdown;charset=utf-8' : 'text/plain;charset=utf-8',
  );
}

export function PasteReader({ paste, password, onEdited }: PasteReaderProps) {
  const { t } = useTranslation();
  const canEdit = useCanEditPaste(paste.created_by);
  const [editing, setEditing] = useState(false);
  const [showQr, setShowQr] = useState(false);
  const [headings, setHeadings] = useState<Heading[]>([]);
  const onHeadings = useCallback((list: Heading[]) => setHeadings(list), []);
  const markdown = paste.format === 'markdown';
  const files = paste.files && paste.files.length > 0 ? paste.files : undefined;
  const outline = !files && markdown && headings.length > 1;

  const facts = [
    t('pasteView.created', { date: formatDateTime(paste.createdAt) }),
    paste.expiresAt
      ? t('pasteView.expires', { date: formatDateTime(paste.expiresAt) })
      : t('pasteView.neverExpires'),
    paste.remainingViews === null
      ? t('pasteView.unlimitedViews')
      : t('pasteView.remainingViews', { count: paste.remainingViews }),
  ];

  return (
    <article className="space-y-4" data-testid="paste-reader">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight break-words text-fg" data-user-content="">
            {paste.title || paste.remark || paste.slug}
          </h1>
          <p
            className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-fg-muted"
            data-testid="paste-facts"
          >
            {files ? (
              <Badge tone="muted">{t('pastes.fileCount', { count: files.length })}</Badge>
            ) : (
              <Badge tone="muted">{markdown ? t('pastes.format.markdown') : t('pastes.format.text')}</Badge>
            )}
            {paste.hasPassword && <Badge tone="warning">{t('pastes.protected')}</Badge>}
            {facts.map((fact) => (
              <span key={fact}>{fact}</span>
            ))}
          </p>
        </div>
        <div className="flex flex-wrap gap-2" data-testid="paste-actions">
          {!files && (
            <>
              <CopyButton text={paste.content} testId="copy-content">
                {t('pasteView.actions.copy')}
              </CopyButton>
              <a
                href={rawPasteUrl(paste.slug, password)}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses('secondary', 'sm')}
                data-testid="raw-link"
              >
                {t('pasteView.actions.raw')}
              </a>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => download(paste.slug, paste.content, markdown)}
                data-testid="download"
              >
                {markdown ? t('pasteView.actions.downloadMarkdown') : t('pasteView.actions.downloadText')}
              </Button>
            </>
          )}
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={showQr}
            aria-controls="paste-qr"
            onClick={() => setShowQr((open) => !open)}
            data-testid="toggle-qr"
          >
            {t('pasteView.actions.qr')}
          </Button>
          {canEdit && (
            <Button size="sm" onClick={() => setEditing(true)} data-testid="edit-paste">
              <PencilIcon className="size-4" />
              {t('common.edit')}
            </Button>
          )}
        </div>
      </header>

      {showQr && (
        <div
          id="paste-qr"
          className="flex flex-col items-center gap-2 rounded-xl border border-border bg-surface p-4 sm:flex-row sm:gap-4"
        >
          <QrCode value={pastePageUrl(paste.slug)} size={160} />
          <p className="text-sm text-fg-muted">{t('pasteView.qrHint')}</p>
        </div>
      )}

      {paste.remainingViews === 0 && (
        <Alert tone="warning" testId="last-view">
          {t('pasteView.lastView')}
        </Alert>
      )}

      {files ? (
        <PasteFiles slug={paste.slug} files={files} password={password} />
      ) : (
        <div className={outline ? 'grid gap-4 lg:grid-cols-[minmax(0,1fr)_15rem] lg:items-start' : ''}>
          {outline && (
            <div className="lg:order-2">
              <PasteOutline headings={headings} />
            </div>
          )}
          <div className="min-w-0 rounded-xl border border-border bg-surface p-4 shadow-card sm:p-6">
            {markdown ? (
              <MarkdownView content={paste.content} onHeadings={onHeadings} testId="paste-content" />
            ) : (
              <pre
                data-testid="paste-content"
                data-user-content=""
                className="font-mono text-sm leading-relaxed break-words whitespace-pre-wrap text-fg"
              >
                {paste.content}
              </pre>
            )}
          </div>
        </div>
      )}

      {editing && (
        <Suspense fallback={null}>
          <EditPasteDialog pasteId={paste.slug} onClose={() => setEditing(false)} onSaved={onEdited} />
        </Suspense>
      )}
    </article>
  );
}
