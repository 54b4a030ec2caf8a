/**
 * The explorer's uploads: a list of every file on its way (where to, progress, speed, time left;
 * cancel, retry, remove), whether the uploaded files are also published as share links (a setting),
 * the uploads a reload interrupted (pick the file again to send only what is missing, or discard),
 * and the question a name the folder already has asks — replace, keep both or skip, for this file or
 * for all.
 */
import { formatBytes } from '@cubby/shared';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../../components/badge.tsx';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { Dialog, DialogActions } from '../../../components/dialog.tsx';
import { Checkbox } from '../../../components/form-field.tsx';
import { CloseIcon } from '../../../components/icons.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { paths } from '../../../config/paths.ts';
import { useAuthStore } from '../../auth/index.ts';
import { useUploadShares } from '../../upload/index.ts';
import { isSameFile } from '../../../lib/transfer/index.ts';
import { FailureMessage, TransferProgress } from '../../../components/transfer-status.tsx';
import type { FsTree } from '../api/fs-api.ts';
import { discardRelay, relayRecords, type RelayRecord } from '../uploads/fs-transfer.ts';
import { useExplorerUploads, type ExplorerUpload, type UploadStatus } from '../uploads/upload-store.ts';

const TONE: Record<UploadStatus, BadgeTone> = {
  conflict: 'warning',
  queued: 'muted',
  uploading: 'accent',
  done: 'success',
  failed: 'danger',
  cancelled: 'muted',
};

function UploadRow({ item }: { item: ExplorerUpload }) {
  const { t } = useTranslation();
  const { cancel, retry, remove } = useExplorerUploads.getState();
  return (
    <li
      className="space-y-2 border-b border-border py-2.5 last:border-b-0"
      data-testid="fs-upload"
      data-status={item.status}
      data-name={item.name}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p
            className="truncate text-sm font-medium text-fg"
            data-user-content=""
            title={item.folder + item.name}
          >
            {item.name}
          </p>
          <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-muted">
            <span className="truncate font-mono" data-user-content="">
              {item.folder}
            </span>
            <span data-user-content="">{formatBytes(item.file.size)}</span>
            <Badge tone={TONE[item.status]} testId="fs-upload-status">
              {t(`explorer.upload.status.${item.status}`)}
            </Badge>
            {item.resuming && item.status !== 'done' && <span>{t('explorer.upload.resuming')}</span>}
          </p>
        </div>
        <div className="flex shrink-0 gap-1">
          {(item.status === 'uploading' || item.status === 'queued') && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => cancel(item.id)}
              data-testid="fs-upload-cancel"
            >
              {t('common.cancel')}
            </Button>
          )}
          {item.status === 'failed' && (
            <Button size="sm" onClick={() => retry(item.id)} data-testid="fs-upload-retry">
              {t('common.retry')}
            </Button>
          )}
          {item.status === 'cancelled' && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => retry(item.id)}
              title={t('explorer.upload.againOf', { name: item.name })}
              data-testid="fs-upload-again"
            >
              {t('explorer.upload.again')}
            </Button>
          )}
          {item.status !== 'uploading' && item.status !== 'queued' && (
            <button
              type="button"
              onClick={() => remove(item.id)}
              aria-label={t('upload.item.remove', { name: item.name })}
              title={t('upload.item.removeShort')}
              className={buttonClasses('ghost', 'sm', 'px-2')}
              data-testid="fs-upload-remove"
            >
              <CloseIcon className="size-4" />
            </button>
          )}
        </div>
      </div>
      {item.status === 'uploading' && (
        <TransferProgress name={item.name} percent={item.percent} speed={item.speed} eta={item.eta} />
      )}
      {item.status === 'failed' && item.failure && <FailureMessage failure={item.failure} />}
    </li>
  );
}

/**
 * One line saying whether files uploaded here are also published as share links (Settings →
 * Uploads, which the admin can follow from here); nothing while the setting is not known yet.
 */
export function UploadShareNote({
  className = '',
  settingsLink = true,
}: {
  className?: string;
  /** The admin's link to the setting (not in the drop overlay, which takes no clicks). */
  settingsLink?: boolean;
}) {
  const { t } = useTranslation();
  const shares = useUploadShares();
  const isAdmin = useAuthStore((state) => state.authType === 'admin');
  if (!shares) return null;
  return (
    <p className={`text-xs text-fg-muted ${className}`} data-testid="upload-share-note">
      {shares.fs ? t('explorer.upload.shares.published') : t('explorer.upload.shares.notPublished')}
      {isAdmin && settingsLink && (
        <>
          {' '}
          <Link
            to={paths.admin.getHref('settings')}
            className="font-medium text-accent-text underline underline-offset-2 hover:no-underline"
          >
            {t('explorer.upload.shares.change')}
          </Link>
        </>
      )}
    </p>
  );
}

/** Remembered relay uploads of this tree that are not on their way now (read at each render). */
function interruptedUploads(tree: FsTree, items: readonly ExplorerUpload[]): RelayRecord[] {
  const busy = new Set(items.map((item) => `${item.folder}\n${item.name}`));
  return relayRecords.list().filter((r) => r.tree === tree && !busy.has(`${r.folder}\n${r.target}`));
}

function InterruptedUploads({ tree, items }: { tree: FsTree; items: readonly ExplorerUpload[] }) {
  const { t } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  const [picking, setPicking] = useState<RelayRecord | null>(null);
  const [discarded, redraw] = useState(0);
  // Read again when the list of uploads changes or one was discarded, not at every progress tick.
  const busy = items.map((item) => `${item.folder}\n${item.name}`).join('\0');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `busy` and `discarded` stand for `items` and localStorage
  const records = useMemo(() => interruptedUploads(tree, items), [tree, busy, discarded]);
  if (records.length === 0) return null;
  return (
    <div className="space-y-2" data-testid="fs-upload-interrupted">
      <input
        ref={picker}
        type="file"
        hidden
        data-testid="fs-upload-resume-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file || !picking) return;
          if (!isSameFile(picking, file)) {
            showToast(t('explorer.upload.notSameFile', { name: picking.name }), 'error');
            return;
          }
          useExplorerUploads.getState().resume(picking, file);
        }}
      />
      {records.map((record) => (
        <div
          key={record.uploadId}
          className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-accent-soft px-3 py-2 text-sm text-fg"
          data-testid="fs-upload-interrupted-item"
        >
          <span className="min-w-0">
            {t('explorer.upload.interrupted', {
              name: record.target,
              folder: record.folder,
              size: formatBytes(record.size),
            })}
          </span>
          <span className="flex gap-2">
            <Button
              size="sm"
              onClick={() => {
                setPicking(record);
                picker.current?.click();
              }}
              data-testid="fs-upload-resume"
            >
              {t('explorer.upload.resume')}
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => void discardRelay(record).finally(() => redraw((n) => n + 1))}
              data-testid="fs-upload-discard"
            >
              {t('explorer.upload.discard')}
            </Button>
          </span>
        </div>
      ))}
    </div>
  );
}

function ConflictDialog({ item, remaining }: { item: ExplorerUpload; remaining: number }) {
  const { t } = useTranslation();
  const [forAll, setForAll] = useState(false);
  const resolve = useExplorerUploads((state) => state.resolve);
  return (
    <Dialog
      open
      role="alertdialog"
      onOpenChange={(open) => !open && resolve('skip', false)}
      title={t('explorer.upload.conflict.title')}
      description={t('explorer.upload.conflict.description', { name: item.name, folder: item.folder })}
      testId="fs-upload-conflict"
    >
      {remaining > 1 && (
        <Checkbox
          label={t('explorer.upload.conflict.forAll', { count: remaining })}
          checked={forAll}
          onChange={(event) => setForAll(event.target.checked)}
          data-testid="conflict-for-all"
        />
      )}
      <DialogActions>
        <Button variant="secondary" onClick={() => resolve('skip', forAll)} data-testid="conflict-skip">
          {t('explorer.upload.conflict.skip')}
        </Button>
        <Button
          variant="secondary"
          onClick={() => resolve('keepBoth', forAll)}
          data-testid="conflict-keep-both"
        >
          {t('explorer.upload.conflict.keepBoth')}
        </Button>
        <Button onClick={() => resolve('replace', forAll)} data-testid="conflict-replace">
          {t('explorer.upload.conflict.replace')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function UploadPanel({ tree }: { tree: FsTree }) {
  const { t } = useTranslation();
  const all = useExplorerUploads((state) => state.items);
  const clearFinished = useExplorerUploads((state) => state.clearFinished);
  const items = all.filter((item) => item.tree === tree);
  const conflicts = items.filter((item) => item.status === 'conflict');
  const done = items.filter((item) => item.status === 'done').length;
  const finished = items.filter((item) => ['done', 'failed', 'cancelled'].includes(item.status)).length;
  const interrupted = <InterruptedUploads tree={tree} items={items} />;
  if (items.length === 0) return interrupted;
  return (
    <section
      aria-label={t('explorer.upload.heading')}
      className="rounded-xl border border-border bg-surface p-3 shadow-card sm:p-4"
      data-testid="fs-uploads"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-fg">
          {t('explorer.upload.heading')}{' '}
          <span className="font-normal text-fg-muted" data-testid="fs-uploads-count">
            {t('explorer.upload.progress', { done, count: items.length })}
          </span>
        </h2>
        {finished > 0 && (
          <Button size="sm" variant="ghost" onClick={clearFinished} data-testid="fs-uploads-clear">
            {t('explorer.upload.clearFinished')}
          </Button>
        )}
      </div>
      <UploadShareNote className="mt-1" />
      {interrupted}
      <ul className="mt-1 max-h-80 overflow-y-auto">
        {items.map((item) => (
          <UploadRow key={item.id} item={item} />
        ))}
      </ul>
      {conflicts[0] && (
        <ConflictDialog key={conflicts[0].id} item={conflicts[0]} remaining={conflicts.length} />
      )}
    </section>
  );
}
