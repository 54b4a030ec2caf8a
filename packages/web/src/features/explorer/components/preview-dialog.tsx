/**
 * The preview of a file in the folder (`?preview=<name>` in the URL, so a reload or a shared link
 * shows it again): the file-view previews from the file's signed preview URL — image, video, audio,
 * PDF, text and code highlighted, Markdown, HTML sandboxed — and a download card for the rest.
 * Previous / Next (and ← →) go through the folder's files; Edit opens a text file in the editor —
 * one larger than the editor takes has Edit disabled, with the reason beside it.
 */
import { useQuery } from '@tanstack/react-query';
import { formatBytes, FS_TEXT_EDIT_MAX_BYTES, type FsListItem } from '@cubby/shared';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import {
  ChevronLeftIcon,
  ChevronRightIcon,
  DownloadIcon,
  LinkIcon,
  PencilIcon,
} from '../../../components/icons.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { InlinePreview, previewKind } from '../../file-view/index.ts';
import { infoQueryOptions, type FsTree } from '../api/fs-api.ts';
import { EntryIcon } from './entry-icon.tsx';
import { FileSize, Modified } from './entry-views.tsx';

export const EDITABLE_KINDS = new Set(['text', 'markdown', 'html']);

export function PreviewDialog({
  tree,
  item,
  files,
  canWrite,
  onShow,
  onClose,
  onDownload,
  onLink,
  onEdit,
}: {
  tree: FsTree;
  item: FsListItem;
  /** The folder's files in the order shown, for Previous / Next. */
  files: readonly FsListItem[];
  canWrite: boolean;
  onShow(item: FsListItem): void;
  onClose(): void;
  onDownload(item: FsListItem): void;
  onLink(item: FsListItem): void;
  onEdit(item: FsListItem): void;
}) {
  const { t } = useTranslation();
  const info = useQuery(infoQueryOptions(tree, item.path));
  const at = files.findIndex((file) => file.path === item.path);
  const previous = at > 0 ? files[at - 1] : undefined;
  const next = at >= 0 && at < files.length - 1 ? files[at + 1] : undefined;
  const kind = previewKind(info.data?.contentType ?? null, item.name);
  const editable = canWrite && EDITABLE_KINDS.has(kind);
  const tooLargeToEdit = item.size > FS_TEXT_EDIT_MAX_BYTES;
  const editNote = useId();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, video, audio, [contenteditable="true"]')) return;
      if (event.key === 'ArrowLeft' && previous) onShow(previous);
      if (event.key === 'ArrowRight' && next) onShow(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [previous, next, onShow]);

  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={
        <span className="break-all" data-user-content="">
          {item.name}
        </span>
      }
      description={
        <>
          <FileSize bytes={item.size} />
          {item.modified && (
            <>
              {' · '}
              <Modified iso={item.modified} />
            </>
          )}
        </>
      }
      testId="preview-dialog"
    >
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={!previous}
          onClick={() => previous && onShow(previous)}
          data-testid="preview-previous"
        >
          <ChevronLeftIcon className="size-4" />
          {t('explorer.preview.previous')}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!next}
          onClick={() => next && onShow(next)}
          data-testid="preview-next"
        >
          {t('explorer.preview.next')}
          <ChevronRightIcon className="size-4" />
        </Button>
        <span className="flex-1" />
        <Button variant="secondary" size="sm" onClick={() => onDownload(item)} data-testid="preview-download">
          <DownloadIcon className="size-4" />
          {t('explorer.actions.download')}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => onLink(item)} data-testid="preview-link">
          <LinkIcon className="size-4" />
          {t('explorer.actions.link')}
        </Button>
        {editable && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => onEdit(item)}
            disabled={tooLargeToEdit}
            aria-describedby={tooLargeToEdit ? editNote : undefined}
            data-testid="preview-edit"
          >
            <PencilIcon className="size-4" />
            {t('explorer.actions.edit')}
          </Button>
        )}
      </div>
      {editable && tooLargeToEdit && (
        <p
          id={editNote}
          className="-mt-2 mb-4 text-xs text-fg-muted sm:text-right"
          data-testid="preview-edit-note"
        >
          {t('explorer.editor.tooLargeToEdit', { limit: formatBytes(FS_TEXT_EDIT_MAX_BYTES) })}
        </p>
      )}
      {info.isPending ? (
        <PageLoading />
      ) : info.error ? (
        <Alert tone="error">{info.error.message}</Alert>
      ) : info.data.preview_url && kind !== 'office' && kind !== 'other' ? (
        <InlinePreview
          key={item.path}
          name={item.name}
          size={item.size}
          kind={kind}
          previewUrl={info.data.preview_url}
        />
      ) : (
        <div
          className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border-strong/60 px-4 py-10 text-center"
          data-testid="preview-download-card"
        >
          <EntryIcon item={item} className="size-12" />
          <p className="text-sm text-fg-muted">{t('explorer.preview.noPreview')}</p>
          <Button onClick={() => onDownload(item)}>
            <DownloadIcon className="size-4" />
            {t('explorer.preview.downloadName', { name: item.name })}
          </Button>
        </div>
      )}
    </Dialog>
  );
}
