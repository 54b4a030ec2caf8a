/**
 * Editing a text file in place (CodeMirror, the paste editor): at most 10 MiB; Ctrl/Cmd+S saves;
 * closing or leaving the page with unsaved changes asks first; the save carries the ETag the file
 * had when it was opened, so a file changed by someone else since is not overwritten silently —
 * the user chooses to overwrite it or to reload it.
 */
import { extensionOf, FS_TEXT_EDIT_MAX_BYTES, type FsListItem } from '@cubby/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Dialog, DialogActions } from '../../../components/dialog.tsx';
import { PageLoading, Spinner } from '../../../components/spinner.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { isApiError } from '../../../lib/api/index.ts';
import { MarkdownEditor } from '../../home/index.ts';
import { readText, saveText, type FsTree } from '../api/fs-api.ts';

export function TextEditorDialog({
  tree,
  item,
  onClose,
  onSaved,
}: {
  tree: FsTree;
  item: FsListItem;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const file = useQuery({
    queryKey: ['fs-editor', tree, item.path],
    queryFn: ({ signal }) => readText(tree, item.path, FS_TEXT_EDIT_MAX_BYTES, signal),
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const content = useRef<string | null>(null);
  const [dirty, setDirty] = useState(false);
  /** The ETag of the last save; before one, the file's when it was (re)loaded. */
  const [savedEtag, setEtag] = useState<string | null>(null);
  const etag = savedEtag ?? file.data?.etag ?? null;
  const [conflict, setConflict] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);

  const save = useMutation({
    mutationFn: (overwrite: boolean) => {
      const text = content.current ?? file.data?.text ?? '';
      return saveText(tree, item.path, text, overwrite ? undefined : (etag ?? undefined));
    },
    onSuccess: (answer) => {
      setEtag(answer.etag);
      setDirty(false);
      setConflict(false);
      showToast(t('explorer.editor.saved', { name: item.name }), 'success');
      onSaved();
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 412) setConflict(true);
    },
  });

  const trySave = () => {
    const text = content.current ?? file.data?.text ?? '';
    if (new TextEncoder().encode(text).length > FS_TEXT_EDIT_MAX_BYTES) {
      setTooLarge(true);
      return;
    }
    setTooLarge(false);
    save.mutate(false);
  };
  const saveRef = useRef(trySave);
  useEffect(() => {
    saveRef.current = trySave;
  });

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const close = () => (dirty ? setConfirmClose(true) : onClose());

  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && close()}
      title={<span className="break-all">{t('explorer.editor.title', { name: item.name })}</span>}
      description={dirty ? t('explorer.editor.unsaved') : t('explorer.editor.hint')}
      testId="editor-dialog"
    >
      <div
        onKeyDown={(event) => {
          if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
            event.preventDefault();
            saveRef.current();
          }
        }}
      >
        {file.isPending ? (
          <PageLoading />
        ) : file.error ? (
          <Alert tone="error">{file.error.message}</Alert>
        ) : (
          <div className="h-[60vh] overflow-hidden rounded-md border border-border">
            <Suspense fallback={<PageLoading />}>
              <MarkdownEditor
                value={file.data.text}
                format={
                  extensionOf(item.name) === 'md' || extensionOf(item.name) === 'markdown'
                    ? 'markdown'
                    : 'text'
                }
                label={t('explorer.editor.label', { name: item.name })}
                placeholder=""
                onChange={(value) => {
                  content.current = value;
                  setDirty(true);
                }}
              />
            </Suspense>
          </div>
        )}
        {tooLarge && (
          <Alert tone="error" className="mt-3">
            {t('explorer.editor.tooLarge')}
          </Alert>
        )}
        {conflict ? (
          <Alert tone="warning" className="mt-3" testId="editor-conflict">
            <p>{t('explorer.editor.conflict')}</p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                size="sm"
                variant="danger"
                onClick={() => save.mutate(true)}
                data-testid="editor-overwrite"
              >
                {t('explorer.editor.overwrite')}
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => {
                  content.current = null;
                  setEtag(null);
                  setDirty(false);
                  setConflict(false);
                  void file.refetch();
                }}
                data-testid="editor-reload"
              >
                {t('explorer.editor.reload')}
              </Button>
            </div>
          </Alert>
        ) : (
          save.error && (
            <Alert tone="error" className="mt-3">
              {save.error.message}
            </Alert>
          )
        )}
        <DialogActions>
          <Button variant="secondary" onClick={close}>
            {t('common.close')}
          </Button>
          <Button onClick={trySave} disabled={!file.data || save.isPending} data-testid="editor-save">
            {save.isPending && <Spinner className="size-4 text-accent-fg" />}
            {t('common.save')}
          </Button>
        </DialogActions>
      </div>
      {confirmClose && (
        <ConfirmDialog
          title={t('explorer.editor.discardTitle')}
          description={t('explorer.editor.discardDescription', { name: item.name })}
          confirmLabel={t('explorer.editor.discard')}
          onConfirm={onClose}
          onClose={() => setConfirmClose(false)}
          testId="editor-discard"
        />
      )}
    </Dialog>
  );
}
