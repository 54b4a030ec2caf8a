/**
 * The files a drop or a pick brings, with the folders they sit in: a dropped folder is walked
 * (every level, every batch its reader gives), a picked folder (`webkitdirectory`) names each file's
 * path. Only `File` handles are collected; nothing is read.
 */
import type { UploadSource } from './upload-store.ts';

/** The entries of a drop; must be called during the drop event (the list empties after it). */
export function droppedEntries(transfer: DataTransfer): FileSystemEntry[] | null {
  const items = [...transfer.items].filter((item) => item.kind === 'file');
  const entries = items.map((item) => item.webkitGetAsEntry?.() ?? null);
  return entries.every((entry) => entry !== null) ? (entries as FileSystemEntry[]) : null;
}

const isFile = (entry: FileSystemEntry): entry is FileSystemFileEntry => entry.isFile;
const isDirectory = (entry: FileSystemEntry): entry is FileSystemDirectoryEntry => entry.isDirectory;

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function childrenOf(entry: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = entry.createReader();
  const all: FileSystemEntry[] = [];
  // A reader answers in batches (100 in Chromium) until it answers an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/** Every file under the dropped entries, with the folders between the drop and it. */
export async function filesOfEntries(entries: readonly FileSystemEntry[], dir = ''): Promise<UploadSource[]> {
  const found: UploadSource[] = [];
  for (const entry of entries) {
    if (isFile(entry)) found.push({ file: await fileOf(entry), dir });
    else if (isDirectory(entry))
      found.push(...(await filesOfEntries(await childrenOf(entry), `${dir}${entry.name}/`)));
  }
  return found;
}

/** Picked files; from a folder pick each keeps its folders (`webkitRelativePath`). */
export function filesOfPick(files: FileList | readonly File[]): UploadSource[] {
  return [...files].map((file) => {
    const relative = file.webkitRelativePath ?? '';
    const cut = relative.lastIndexOf('/');
    return { file, dir: cut > 0 ? `${relative.slice(0, cut)}/` : '' };
  });
}
