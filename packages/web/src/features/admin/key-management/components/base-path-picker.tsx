/**
 * "Browse…" for a key's base path (or an app password's folder): a dialog that walks the folders of the mounts (the admin's
 * `fs/list`, or a member's, which shows only where they reach), one level at a time, with breadcrumbs and a way up; "Choose this folder" puts the
 * open folder into the field. A folder that does not exist yet can still be chosen (it becomes the
 * key's home once created).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../../components/alert.tsx';
import { Button } from '../../../../components/button.tsx';
import { Dialog, DialogActions } from '../../../../components/dialog.tsx';
import { FolderButtons } from '../../../../components/folder-buttons.tsx';
import { ArrowUpIcon, FolderIcon } from '../../../../components/icons.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { api, isApiError } from '../../../../lib/api/index.ts';
import { routeScope, useAuthStore } from '../../../auth/index.ts';
import { crumbsOf, foldersOf, listUrl, parentOf, startingPath } from '../path-picker.ts';

export function BasePathPicker({
  value,
  onChoose,
  onClose,
  title,
  description,
}: {
  /** The field's current value: where the picker opens. */
  value: string;
  /** What the dialog says it picks (a key's base path by default). */
  title?: string;
  description?: string;
  onChoose(path: string): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const tree = useAuthStore(routeScope);
  const [path, setPath] = useState(() => startingPath(value));
  const listing = useQuery({
    queryKey: ['base-path-picker', path],
    queryFn: ({ signal }) => api.get<unknown>(listUrl(path, tree), { signal }),
    // Always what is there now: mounts and folders change under the admin's hands.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const folders = listing.data === undefined ? [] : foldersOf(listing.data);
  const parent = parentOf(path);
  // A folder below the top that is not there (yet): it can still be chosen.
  const missing = parent !== null && isApiError(listing.error) && listing.error.status === 404;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title ?? t('keys.picker.title')}
      description={description ?? t('keys.picker.description')}
      testId="base-path-picker"
    >
      <nav aria-label={t('keys.picker.crumbsLabel')} className="mb-3">
        <ol className="flex flex-wrap items-center gap-1 text-sm">
          {crumbsOf(path).map((crumb, index, all) => (
            <li key={crumb.path} className="flex min-w-0 items-center gap-1">
              {index > 0 && (
                <span aria-hidden="true" className="text-fg-muted">
                  /
                </span>
              )}
              {index === all.length - 1 ? (
                <span aria-current="page" className="font-mono font-medium break-all" data-user-content="">
                  {index === 0 ? t('keys.picker.root') : crumb.name}
                </span>
              ) : (
                <button
                  type="button"
                  className="rounded font-mono break-all text-accent-text hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                  onClick={() => setPath(crumb.path)}
                  data-user-content=""
                >
                  {index === 0 ? t('keys.picker.root') : crumb.name}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <div className="min-h-40 rounded-lg border border-border">
        {parent !== null && (
          <button
            type="button"
            className="flex w-full items-center gap-2 border-b border-border px-3 py-2 text-left text-sm text-fg-muted hover:bg-surface-sunken focus-visible:outline-2 focus-visible:outline-ring"
            onClick={() => setPath(parent)}
            data-testid="picker-up"
          >
            <ArrowUpIcon className="size-4" />
            {t('keys.picker.up')}
          </button>
        )}
        {listing.isPending ? (
          <PageLoading />
        ) : listing.isError ? (
          <div className="p-3">
            <Alert tone={missing ? 'warning' : 'error'}>
              {missing ? (
                t('keys.picker.notFound')
              ) : (
                // The server's message, in its words.
                <span data-user-content="">{listing.error.message}</span>
              )}
            </Alert>
          </div>
        ) : folders.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-fg-muted" data-testid="picker-empty">
            {t('keys.picker.empty')}
          </p>
        ) : (
          <FolderButtons
            folders={folders}
            label={t('keys.picker.foldersLabel')}
            enterLabel={(name) => t('keys.picker.enter', { name })}
            onOpen={setPath}
          />
        )}
      </div>
      <p className="mt-3 text-sm text-fg-muted">{t('keys.picker.current', { path })}</p>
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          onClick={() => {
            onChoose(path);
            onClose();
          }}
          data-testid="picker-choose"
        >
          {t('keys.picker.choose')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The "Browse…" button beside a path field that opens the picker. */
export function BrowseButton({ label, onClick, testId }: { label: string; onClick(): void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Button variant="secondary" onClick={onClick} aria-label={label} data-testid={testId}>
      <FolderIcon className="size-4" />
      {t('keys.picker.open')}
    </Button>
  );
}
