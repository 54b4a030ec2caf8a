/**
 * The explorer's uploads: files and folders dropped or picked, each into its folder of a mount.
 * A name the folder already has waits for the user's choice — replace, keep both (`name (1).ext`),
 * or skip, for one or for all — and the rest start at once, two files at a time (a large one
 * already sends three parts at once). Each shows progress, speed and time left and can be cancelled,
 * retried and removed; a cancelled one is not a failure (nothing of it is kept) and can be started
 * again. The list lives outside the page, so uploads go on while the user browses.
 */
import { create } from 'zustand';
import {
  toUploadFailure,
  type UploadFailure,
  meteredProgress,
  percentOf,
} from '../../../lib/transfer/index.ts';
import type { FsTree } from '../api/fs-api.ts';
import { keepBothName } from '../explorer-model.ts';
import { findRelay, sendFile, type RelayRecord } from './fs-transfer.ts';

export type UploadStatus = 'conflict' | 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';
export type ConflictChoice = 'replace' | 'keepBoth' | 'skip';

export interface ExplorerUpload {
  id: string;
  file: File;
  tree: FsTree;
  /** The folder it goes into (`/m/photos/2026/`). */
  folder: string;
  /** Its name there. */
  name: string;
  status: UploadStatus;
  percent: number;
  /** Bytes per second and seconds left, while known. */
  speed: number | null;
  eta: number | null;
  failure: UploadFailure | null;
  /** Continues an interrupted upload of this file (only the missing parts are sent). */
  resuming: boolean;
  /** For a conflict: the names the folder held when the upload was added. */
  existing?: ReadonlySet<string>;
}

/** A file to upload and the folder (below the one it was dropped on) it goes into. */
export interface UploadSource {
  file: File;
  /** Folders between the drop target and the file (`trip/day 1/`), or ''. */
  dir: string;
}

interface UploadState {
  items: ExplorerUpload[];
  /**
   * Adds uploads into `folder`; `namesIn` tells which names a folder already holds (an empty set
   * for a folder that does not exist yet).
   */
  add(
    tree: FsTree,
    folder: string,
    sources: readonly UploadSource[],
    namesIn: (folder: string) => Promise<ReadonlySet<string>>,
  ): Promise<void>;
  /** Continues a remembered relay upload with the file picked again. */
  resume(record: RelayRecord, file: File): void;
  /** Settles the first waiting conflict, or every one with `forAll`. */
  resolve(choice: ConflictChoice, forAll: boolean): void;
  cancel(id: string): void;
  retry(id: string): void;
  remove(id: string): void;
  clearFinished(): void;
}

/** Files uploading at once. */
const FILE_CONCURRENCY = 2;
const controllers = new Map<string, AbortController>();
const uploadedListeners = new Set<(tree: FsTree, folder: string) => void>();
let nextId = 1;

/** Called with each file's folder when it has been stored; returns the unsubscribe. */
export function onUploaded(listener: (tree: FsTree, folder: string) => void): () => void {
  uploadedListeners.add(listener);
  return () => uploadedListeners.delete(listener);
}

function newUpload(
  file: File,
  tree: FsTree,
  folder: string,
  name: string,
  resuming: boolean,
): ExplorerUpload {
  return {
    id: `fs-upload-${nextId++}`,
    file,
    tree,
    folder,
    name,
    status: 'queued',
    percent: 0,
    speed: null,
    eta: null,
    failure: null,
    resuming,
  };
}

const active = (item: ExplorerUpload) =>
  item.status === 'conflict' || item.status === 'queued' || item.status === 'uploading';

export const useExplorerUploads = create<UploadState>()((set, get) => {
  const update = (id: string, patch: Partial<ExplorerUpload>) =>
    set((state) => ({ items: state.items.map((item) => (item.id === id ? { ...item, ...patch } : item)) }));

  /** Names taken in a folder by the storage or by another upload into it. */
  const takenIn = (item: ExplorerUpload, stored: ReadonlySet<string>) =>
    new Set([
      ...stored,
      ...get()
        .items.filter((other) => other.id !== item.id && other.folder === item.folder && active(other))
        .map((other) => other.name),
    ]);

  function pump() {
    const { items } = get();
    let running = items.filter((item) => item.status === 'uploading').length;
    for (const item of items) {
      if (running >= FILE_CONCURRENCY) break;
      if (item.status !== 'queued') continue;
      running++;
      void run(item);
    }
  }

  async function run(item: ExplorerUpload) {
    const controller = new AbortController();
    controllers.set(item.id, controller);
    update(item.id, { status: 'uploading', percent: 0, speed: null, eta: null, failure: null });
    const meter = meteredProgress();
    try {
      await sendFile(item.file, {
        tree: item.tree,
        folder: item.folder,
        name: item.name,
        signal: controller.signal,
        onProgress: (loaded) => {
          const estimate = meter.sample(loaded, item.file.size);
          if (estimate)
            update(item.id, { percent: Math.min(99, percentOf(loaded, item.file.size)), ...estimate });
        },
      });
      update(item.id, { status: 'done', percent: 100, speed: null, eta: null, resuming: false });
      for (const listener of uploadedListeners) listener(item.tree, item.folder);
    } catch (error) {
      const failure = toUploadFailure(error);
      const cancelled = failure.cancelled || controller.signal.aborted;
      update(item.id, {
        status: cancelled ? 'cancelled' : 'failed',
        failure: cancelled ? null : failure,
        speed: null,
        eta: null,
        resuming: findRelay(item.file, item) !== null,
      });
    } finally {
      controllers.delete(item.id);
      pump();
    }
  }

  return {
    items: [],

    async add(tree, folder, sources, namesIn) {
      const stored = new Map<string, Promise<ReadonlySet<string>>>();
      const namesOf = (where: string) => {
        if (!stored.has(where))
          stored.set(
            where,
            namesIn(where).catch(() => new Set<string>()),
          );
        return stored.get(where)!;
      };
      for (const { file, dir } of sources) {
        const target = { tree, folder: folder + dir, name: file.name };
        const item = newUpload(file, tree, target.folder, file.name, findRelay(file, target) !== null);
        // An interrupted upload of this very file to this very name continues; it is no conflict.
        const names = await namesOf(item.folder);
        if (!item.resuming && takenIn(item, names).has(item.name)) {
          item.status = 'conflict';
          item.existing = names;
        }
        set((state) => ({ items: [...state.items, item] }));
      }
      pump();
    },

    resume(record, file) {
      const item = newUpload(file, record.tree, record.folder, record.target, true);
      set((state) => ({ items: [...state.items, item] }));
      pump();
    },

    resolve(choice, forAll) {
      const waiting = get().items.filter((item) => item.status === 'conflict');
      for (const item of forAll ? waiting : waiting.slice(0, 1)) {
        if (choice === 'skip') {
          set((state) => ({ items: state.items.filter((other) => other.id !== item.id) }));
        } else if (choice === 'replace') {
          update(item.id, { status: 'queued' });
        } else {
          const taken = takenIn(item, item.existing ?? new Set([item.name]));
          update(item.id, { status: 'queued', name: keepBothName(item.name, taken) });
        }
      }
      pump();
    },

    cancel(id) {
      const item = get().items.find((other) => other.id === id);
      if (item?.status === 'queued' || item?.status === 'conflict')
        set((state) => ({ items: state.items.filter((other) => other.id !== id) }));
      controllers.get(id)?.abort();
    },

    retry(id) {
      update(id, { status: 'queued', failure: null, percent: 0 });
      pump();
    },

    remove(id) {
      controllers.get(id)?.abort();
      set((state) => ({ items: state.items.filter((item) => item.id !== id) }));
    },

    clearFinished() {
      set((state) => ({ items: state.items.filter(active) }));
    },
  };
});
