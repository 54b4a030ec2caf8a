/**
 * The upload list and the runner behind it (docs/product.md §4 upload states). Items are files picked or
 * dropped, or analysed URLs; each is pending, uploading (stage, percent, speed, time left), success
 * (the share) or error (the failure), and can be retried, removed or cancelled. Started items run
 * one after another (a large file already sends three parts at once). The state lives outside the
 * page, so uploads go on while the user looks at another screen of the app.
 */
import type { FileShare, SharePolicy } from '@cubby/shared';
import { create } from 'zustand';
import {
  chooseStrategy,
  toUploadFailure,
  type UploadFailure,
  meteredProgress,
  readTuning,
} from '../../lib/transfer/index.ts';
import { routeScope, useAuthStore } from '../auth/index.ts';
import { abortMultipart, type FileScope } from './api/upload-api.ts';
import { addRecentUpload, readRecentUploads, type RecentUpload } from './recent-uploads.ts';
import { ResumeStore, type ResumeRecord } from './resume-store.ts';
import { uploadFromUrl, type UrlSource } from './transfer/upload-from-url.ts';
import { uploadLargeFile } from './transfer/upload-large-file.ts';
import type { UploadRun, UploadStage, UploadTarget } from './transfer/upload-run.ts';
import { uploadSmallFile } from './transfer/upload-small-file.ts';
import { isWithinLimit } from './upload-form.ts';
import { largestFile, policyRefusal } from './share-policy-form.ts';

export type ItemStatus = 'pending' | 'uploading' | 'success' | 'error';

export type ItemSource = { kind: 'file'; file: File } | { kind: 'url'; source: UrlSource };

export interface UploadItem {
  id: string;
  source: ItemSource;
  name: string;
  /** Bytes; null for a URL whose size the server could not tell. */
  size: number | null;
  type: string;
  status: ItemStatus;
  stage: UploadStage | null;
  percent: number;
  /** Bytes per second and seconds left, while known. */
  speed: number | null;
  eta: number | null;
  share: FileShare | null;
  failure: UploadFailure | null;
  /** An interrupted upload of this very file that will be continued. */
  resume: ResumeRecord | null;
  /** Larger than the server's limit: cannot be uploaded. */
  tooLarge: boolean;
  /** Refused by the share policy (too large, a type not allowed): cannot be uploaded; why. */
  refused: ReturnType<typeof policyRefusal>;
  /** Where to and with which settings; set when the upload starts, reused by a retry. */
  target: UploadTarget | null;
  /** Started and waiting for its turn. */
  queued: boolean;
  /**
   * Which start it belongs to (the upload button, a URL's start, a retry), counting from 1; 0 before
   * it is started. The page announces the outcome of the latest start only.
   */
  batch: number;
}

interface QueueState {
  items: UploadItem[];
  recent: RecentUpload[];
  addFiles(files: readonly File[], maxBytes: number | null, policy?: SharePolicy | null): void;
  /** Adds an analysed URL and returns its item id. */
  addUrl(source: UrlSource, maxBytes: number | null, policy?: SharePolicy | null): string;
  /** Starts every pending item that may be uploaded, with these settings. */
  startPending(target: UploadTarget): void;
  /** Starts one item (a URL upload) with these settings. */
  start(id: string, target: UploadTarget): void;
  cancel(id: string): void;
  retry(id: string): void;
  remove(id: string): void;
  /** Declines the offered resumption: the old session is aborted and the file starts afresh. */
  startOver(id: string): void;
  clearFinished(): void;
}

const resumeStore = new ResumeStore();
const controllers = new Map<string, AbortController>();
const waiting: string[] = [];
let pumping = false;
let nextId = 1;
let nextBatch = 1;

function newItem(
  source: ItemSource,
  name: string,
  size: number | null,
  type: string,
  maxBytes: number | null,
  policy: SharePolicy | null = null,
) {
  const refused = policyRefusal(policy, { name, size });
  return {
    id: `upload-${nextId++}`,
    source,
    name,
    size,
    type,
    status: 'pending',
    stage: null,
    percent: 0,
    speed: null,
    eta: null,
    share: null,
    failure: null,
    resume: null,
    // Both block the upload: the server would refuse it (the share policy before a byte is sent).
    tooLarge: size !== null && !isWithinLimit(size, maxBytes),
    refused,
    target: null,
    queued: false,
    batch: 0,
  } satisfies UploadItem;
}

/** An item the server would refuse (the upload limit, the share policy): never started. */
export function isBlocked(item: Pick<UploadItem, 'tooLarge' | 'refused'>): boolean {
  return item.tooLarge || item.refused !== null;
}

function scope(): FileScope {
  return routeScope(useAuthStore.getState());
}

export const useUploadQueue = create<QueueState>()((set, get) => {
  const update = (id: string, patch: Partial<UploadItem>) =>
    set((state) => ({ items: state.items.map((item) => (item.id === id ? { ...item, ...patch } : item)) }));
  const find = (id: string) => get().items.find((item) => item.id === id);

  const enqueue = (id: string) => {
    update(id, { queued: true, failure: null, status: 'pending', percent: 0, stage: null });
    waiting.push(id);
    void pump();
  };

  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      for (let id = waiting.shift(); id !== undefined; id = waiting.shift()) await runItem(id);
    } finally {
      pumping = false;
    }
  }

  async function runItem(id: string) {
    const item = find(id);
    if (!item || !item.queued || !item.target) return;
    const controller = new AbortController();
    controllers.set(id, controller);
    update(id, { status: 'uploading', queued: false, stage: 'starting', speed: null, eta: null });
    const meter = meteredProgress();
    const tuning = readTuning();
    const run: UploadRun = {
      target: item.target,
      signal: controller.signal,
      tuning,
      scope: scope(),
      resumeStore,
      stage: (stage) => {
        meter.reset();
        update(id, { stage, speed: null, eta: null });
      },
      progress: ({ percent, loaded, total }) => {
        const estimate = meter.sample(loaded, total, percent >= 99);
        if (estimate) update(id, { percent, ...estimate });
      },
    };
    try {
      const { source } = item;
      let share: FileShare;
      if (source.kind === 'url') {
        share = await uploadFromUrl(source.source, run);
      } else if (item.resume || chooseStrategy(source.file.size, tuning) === 'multipart') {
        share = await uploadLargeFile(source.file, run, item.resume);
      } else {
        share = await uploadSmallFile(source.file, run);
      }
      update(id, {
        status: 'success',
        stage: 'completed',
        percent: 100,
        share,
        resume: null,
        speed: null,
        eta: null,
      });
      set({
        recent: addRecentUpload({
          slug: share.slug,
          filename: share.filename,
          size: share.size,
          created_at: share.created_at,
        }),
      });
    } catch (error) {
      const failure = toUploadFailure(error);
      const resume = item.source.kind === 'file' ? resumeStore.find(item.source.file) : null;
      update(id, { status: 'error', failure, resume, speed: null, eta: null });
    } finally {
      controllers.delete(id);
    }
  }

  return {
    items: [],
    recent: readRecentUploads(),

    addFiles(files, maxBytes, policy = null) {
      const added = files.map((file) => ({
        ...newItem({ kind: 'file', file }, file.name, file.size, file.type, maxBytes, policy),
        resume: resumeStore.find(file),
      }));
      set((state) => ({ items: [...state.items, ...added] }));
    },

    addUrl(source, maxBytes, policy = null) {
      const item = newItem(
        // A download of unknown size is cut where it passes the largest file allowed.
        { kind: 'url', source: { ...source, maxBytes: largestFile(maxBytes, policy) } },
        source.filename,
        source.info.size,
        source.info.contentType,
        maxBytes,
        policy,
      );
      set((state) => ({ items: [...state.items, item] }));
      return item.id;
    },

    startPending(target) {
      const batch = nextBatch++;
      for (const item of get().items) {
        if (item.status === 'pending' && !item.queued && !isBlocked(item)) {
          update(item.id, { target, batch });
          enqueue(item.id);
        }
      }
    },

    start(id, target) {
      const item = find(id);
      if (!item || isBlocked(item) || item.status !== 'pending' || item.queued) return;
      update(id, { target, batch: nextBatch++ });
      enqueue(id);
    },

    cancel(id) {
      const controller = controllers.get(id);
      if (controller) {
        controller.abort();
        return;
      }
      const index = waiting.indexOf(id);
      if (index >= 0) waiting.splice(index, 1);
      update(id, {
        status: 'error',
        queued: false,
        failure: toUploadFailure(new DOMException('', 'AbortError')),
      });
    },

    retry(id) {
      const item = find(id);
      if (!item || item.status !== 'error' || !item.target || isBlocked(item)) return;
      update(id, { batch: nextBatch++ });
      enqueue(id);
    },

    remove(id) {
      get().cancel(id);
      set((state) => ({ items: state.items.filter((item) => item.id !== id) }));
    },

    startOver(id) {
      const item = find(id);
      if (!item?.resume) return;
      const { file_id, upload_id } = item.resume;
      resumeStore.forget(file_id);
      abortMultipart({ file_id, upload_id }).catch(() => {});
      update(id, { resume: null });
    },

    clearFinished() {
      set((state) => ({ items: state.items.filter((item) => item.status !== 'success') }));
    },
  };
});
