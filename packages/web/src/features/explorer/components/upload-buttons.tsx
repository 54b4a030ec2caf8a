/**
 * Ways into the explorer's uploads: "Upload files" and "Upload folder" pickers in the toolbar, and
 * files or folders dropped anywhere on the page (with an overlay naming the folder they go to and
 * whether the files are published as share links).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { FolderIcon, UploadIcon } from '../../../components/icons.tsx';
import { droppedEntries, filesOfEntries, filesOfPick } from '../uploads/gather.ts';
import type { UploadSource } from '../uploads/upload-store.ts';
import { UploadShareNote } from './upload-panel.tsx';

export function UploadButtons({ onFiles }: { onFiles(sources: UploadSource[]): void }) {
  const { t } = useTranslation();
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const picked = (input: HTMLInputElement) => {
    if (input.files && input.files.length > 0) onFiles(filesOfPick(input.files));
    input.value = '';
  };
  return (
    <>
      <input
        ref={files}
        type="file"
        multiple
        hidden
        data-testid="explorer-upload-input"
        onChange={(event) => picked(event.currentTarget)}
      />
      <input
        ref={folder}
        type="file"
        hidden
        // A folder picker: every file inside, with its path.
        {...{ webkitdirectory: '' }}
        data-testid="explorer-upload-folder-input"
        onChange={(event) => picked(event.currentTarget)}
      />
      <Button size="sm" onClick={() => files.current?.click()} data-testid="explorer-upload">
        <UploadIcon className="size-4" />
        {t('explorer.upload.files')}
      </Button>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => folder.current?.click()}
        data-testid="explorer-upload-folder"
      >
        <FolderIcon className="size-4" />
        {t('explorer.upload.folder')}
      </Button>
    </>
  );
}

const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;

/** Files and folders dropped anywhere on the page go to `onFiles`; an overlay shows while dragging. */
export function DropUploads({ folder, onFiles }: { folder: string; onFiles(sources: UploadSource[]): void }) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer!.dropEffect = 'copy';
      setDragging(true);
    };
    // Left the window (not merely one element for another).
    const leave = (event: DragEvent) => {
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      const transfer = event.dataTransfer!;
      const entries = droppedEntries(transfer);
      if (entries) void filesOfEntries(entries).then(onFiles);
      else onFiles(filesOfPick(transfer.files));
    };
    document.addEventListener('dragover', over);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragover', over);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
    };
  }, [onFiles]);
  if (!dragging) return null;
  return (
    <div
      className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-accent/10 p-6"
      data-testid="explorer-drop-overlay"
    >
      <div className="max-w-md space-y-2 rounded-xl border-2 border-dashed border-accent bg-surface-raised px-6 py-8 text-center shadow-lg">
        <p className="text-base font-medium text-fg">{t('explorer.upload.drop', { folder })}</p>
        <UploadShareNote settingsLink={false} />
      </div>
    </div>
  );
}
