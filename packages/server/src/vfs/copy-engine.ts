/**
 * The copy and move engine (docs/architecture.md, "The storage core"): copies a file or a folder
 * with everything in it between any two places of the virtual tree, on one storage or across
 * storages, with the rules of every write — locks bind the source of a move and the target, the
 * quota is reserved before bytes flow, and each change is reported as it happens. The fs tasks
 * (modules/fs-tasks) keep the records, the queue, progress and retries; WebDAV COPY/MOVE run through
 * them.
 *
 * - Within one storage config the storage copies by itself (S3 CopyObject, a local file copy);
 *   across storages each file is streamed from one driver into the other, never held in memory. A
 *   driver write is atomic, so a cancelled or failed copy leaves nothing under the target name.
 * - A folder's files go several at a time; a file that fails is counted on its item (and named, up
 *   to FAILED_FILES_LISTED, for a retry) while the others go on.
 */
import type { FsTaskAnswer, Principal } from '@cubby/shared';
import { AppError, conflict } from '../errors/app-error.ts';
import { isStorageError, type StorageDriver } from '../storage/driver.ts';
import { isHiddenName } from '../storage/driver-names.ts';
import { joinPath, parentOf } from '../storage/driver-path.ts';
import type { Place, StorageChange } from './changes.ts';
import type { FolderRules } from './folder-rules.ts';
import { type Mutations, statIfAny } from './mutations.ts';
import { type MountedPath, placeOf, type Resolver } from './resolve.ts';
import { fsStorageFailure, storageOp } from './storage-answers.ts';

/** Files of one folder copied at a time. */
const FILES_AT_ONCE = 8;
/** Failed files a folder item names for a retry; past that a retry copies the whole folder again. */
export const FAILED_FILES_LISTED = 100;

/** Files and bytes of a run (a task's `progress`, packages/shared). */
export type Progress = FsTaskAnswer['progress'];

/** A run's progress before anything is counted. */
export const noProgress = (): Progress => ({
  filesTotal: 0,
  filesDone: 0,
  filesSkipped: 0,
  filesFailed: 0,
  bytesTotal: 0,
  bytesDone: 0,
});

/** One thing to copy (canonical virtual paths) and what became of what is inside it. */
export interface CopyItem {
  sourcePath: string;
  targetPath: string;
  /** Files copied, skipped and failed inside it (a file item counts itself). */
  done: number;
  skipped: number;
  failed: number;
  /** A message key (with its parameters: {@link errorKey}). */
  error?: string;
  /**
   * Inside a folder: the files (paths below it) whose copy failed, for a retry; it names them all
   * only while `failed` is at most FAILED_FILES_LISTED.
   */
  failedFiles?: string[];
  /** While a retry runs: the only files of the folder it copies (its `failedFiles` before). */
  onlyFiles?: string[];
}

/** How one item is copied. */
export interface CopyRun {
  move: boolean;
  /** A file the target already has is skipped (else replaced). */
  skipExisting: boolean;
  progress: Progress;
  signal: AbortSignal;
}

/** A file to copy inside a folder item: driver paths on both sides. */
interface FileJob {
  from: string;
  to: string;
  size: number;
}

/** A mounted path with the driver that holds it: the engine's own, never handed out. */
interface Held extends MountedPath {
  driver: StorageDriver;
}

/** A copy stopped by its signal (a cancel, a shutdown). */
export class Cancelled extends Error {}

/**
 * What a failed item keeps of its error: the message key, followed by its parameters as JSON when it
 * has any (a quota's numbers, a locked path), so the task can say it in full later (modules/fs-tasks: `messageText`).
 */
export const errorKey = (error: unknown): string => {
  const answer = fsStorageFailure(error);
  if (answer instanceof AppError) {
    return Object.keys(answer.params).length > 0
      ? `${answer.messageKey} ${JSON.stringify(answer.params)}`
      : answer.messageKey;
  }
  if (error instanceof Cancelled) return 'fs.task_cancelled';
  return 'common.internal';
};

export interface CopyEngineDeps {
  resolver: Resolver;
  mutations: Mutations;
  report: (change: StorageChange) => Promise<void>;
  /** Forgets every listing around places a failure left in an unknown state. */
  forgetAround: (...places: Place[]) => Promise<void>;
  /** Folder rules (vfs/folder-rules.ts): what a principal may not see inside a folder is not copied. */
  rules: Pick<FolderRules, 'visible' | 'guard'> & { binds(principal: Principal): boolean };
}

export class CopyEngine {
  constructor(private readonly deps: CopyEngineDeps) {}

  private async held(at: MountedPath): Promise<Held> {
    return { ...at, driver: await this.deps.resolver.driverOf(at) };
  }

  /**
   * Copies (or moves) one item: a file, or a folder with everything in it; its paths are checked
   * again for `principal` first (a task may run long after it was made).
   */
  async copyItem(principal: Principal, item: CopyItem, run: CopyRun): Promise<void> {
    const { resolver, mutations } = this.deps;
    const { move, skipExisting, progress, signal } = run;
    const from = await this.held(await resolver.resolveMounted(principal, item.sourcePath, 'read'));
    // A moved source goes from its place: a lock on it binds as on any write.
    if (move) await mutations.assertUnlocked(principal, [{ path: from.path, below: true, membership: true }]);
    const to = await this.held(await mutations.resolveWritable(principal, item.targetPath));
    const sameStorage = from.config.id === to.config.id;
    try {
      const entry = await storageOp(() => from.driver.stat(from.subPath));
      if (!entry.isDirectory) {
        progress.filesTotal++;
        progress.bytesTotal += entry.size;
        await this.copyFile(
          from,
          to,
          { from: from.subPath, to: to.subPath, size: entry.size },
          {
            sameStorage,
            move,
            skipExisting,
            item,
            progress,
            signal,
          },
        );
        return;
      }
      const jobs = item.onlyFiles
        ? await this.listed(from, to, item.onlyFiles)
        : await this.walk(principal, from, to, signal);
      progress.filesTotal += jobs.files.length;
      progress.bytesTotal += jobs.files.reduce((sum, f) => sum + f.size, 0);
      const targetExists = (await statIfAny(to.driver, to.subPath)) !== null;
      // The storage's own copy takes everything; where folder rules bind the caller, only what
      // they may see goes (file by file).
      if (sameStorage && !targetExists && !item.onlyFiles && !jobs.filtered) {
        // The storage copies (or moves) the whole folder itself.
        await storageOp(() =>
          (move ? from.driver.move : from.driver.copy).call(from.driver, from.subPath, to.subPath),
        );
        await this.deps.report(
          move ? { kind: 'moved', from: placeOf(from), to: placeOf(to) } : { kind: 'made', at: placeOf(to) },
        );
        item.done += jobs.files.length;
        progress.filesDone += jobs.files.length;
        progress.bytesDone += jobs.files.reduce((sum, f) => sum + f.size, 0);
        return;
      }
      for (const dir of jobs.dirs) {
        const made = await to.driver.mkdir(dir).then(
          () => true,
          (error: unknown) => {
            if (!isStorageError(error, 'ALREADY_EXISTS')) throw error;
            return false;
          },
        );
        if (made) await this.deps.report({ kind: 'made', at: { configId: to.config.id, path: dir } });
      }
      // Several files at a time: each small file costs the storages a few round trips.
      let next = 0;
      const worker = async () => {
        while (next < jobs.files.length) {
          const job = jobs.files[next++]!;
          if (signal.aborted) throw new Cancelled();
          try {
            await this.copyFile(from, to, job, { sameStorage, move, skipExisting, item, progress, signal });
          } catch (error) {
            if (signal.aborted) throw error;
            item.failed++;
            progress.filesFailed++;
            item.error ??= errorKey(error);
            if (item.failed <= FAILED_FILES_LISTED) {
              (item.failedFiles ??= []).push(job.from.slice(from.subPath.length + 1));
            }
          }
        }
      };
      await Promise.all(Array.from({ length: FILES_AT_ONCE }, worker));
      // Each moved file has left the source already; what is still there was skipped (the target
      // had it) or failed, and stays. Only the folders the move emptied go, deepest first. When
      // everything went, the folder itself has moved: what follows folders (a folder share) follows
      // it before the emptied source is reported deleted.
      if (move && !signal.aborted) {
        if (item.failed === 0 && item.skipped === 0 && !item.onlyFiles && !jobs.filtered) {
          await this.deps.report({ kind: 'moved', from: placeOf(from), to: placeOf(to) });
        }
        await this.removeEmptied(from, to, jobs.dirs);
      }
    } catch (error) {
      // Whatever a failure left halfway, no listing of either side is trusted any longer.
      await this.deps.forgetAround(placeOf(to), ...(move ? [placeOf(from)] : []));
      throw error;
    } finally {
      delete item.onlyFiles;
    }
  }

  /** The files a retry copies again (paths below a folder item), with the folders they go into. */
  private async listed(from: Held, to: Held, files: string[]) {
    const jobs: FileJob[] = [];
    const dirs = new Set<string>();
    for (const file of files) {
      const source = joinPath(from.subPath, file);
      const target = joinPath(to.subPath, file);
      // One that is gone fails again when it is copied.
      const size = await from.driver.stat(source).then(
        (entry) => entry.size,
        () => 0,
      );
      jobs.push({ from: source, to: target, size });
      dirs.add(parentOf(target));
    }
    return { files: jobs, dirs: [...dirs], filtered: false };
  }

  /** Removes the source folders of `targetDirs` (and the source itself) that a move left empty. */
  private async removeEmptied(from: Held, to: Held, targetDirs: string[]): Promise<void> {
    const sources = new Set([from.subPath]);
    for (const dir of targetDirs) {
      if (dir === to.subPath || dir.startsWith(to.subPath === '/' ? '/' : `${to.subPath}/`)) {
        sources.add(joinPath(from.subPath, dir.slice(to.subPath.length + 1)));
      }
    }
    const deepestFirst = [...sources].sort((a, b) => b.length - a.length);
    for (const dir of deepestFirst) {
      const removed = await from.driver.remove(dir).then(
        () => true,
        (error: unknown) => {
          // Not empty: it holds what was skipped or failed. Gone: an S3 folder with no marker.
          if (!isStorageError(error, 'PRECONDITION_FAILED') && !isStorageError(error, 'NOT_FOUND'))
            throw error;
          return false;
        },
      );
      if (removed) await this.deps.report({ kind: 'deleted', at: { configId: from.config.id, path: dir } });
    }
  }

  /** Every folder (to create) and file (to copy) below a folder item, with their target paths. */
  private async walk(principal: Principal, from: Held, to: Held, signal: AbortSignal) {
    const files: FileJob[] = [];
    const dirs: string[] = [to.subPath];
    const pending = [from.subPath];
    const { rules } = this.deps;
    const bound = rules.binds(principal);
    // Whether folder rules left something out (a hidden name, a folder whose password is not given).
    let filtered = false;
    while (pending.length > 0) {
      const dir = pending.shift()!;
      const rel = dir === from.subPath ? '' : dir.slice(from.subPath.length + 1);
      const virtualDir = rel ? joinPath(from.path, rel) : from.path;
      if (bound && rel) {
        const closed = await rules.guard(principal, virtualDir).then(
          () => false,
          (error: unknown) => {
            if (error instanceof AppError && error.code === 'FS_PATH_PASSWORD_REQUIRED') return true;
            throw error;
          },
        );
        if (closed) {
          filtered = true;
          continue;
        }
        dirs.push(joinPath(to.subPath, rel));
      }
      let cursor: string | undefined;
      do {
        if (signal.aborted) throw new Cancelled();
        const page = await storageOp(() => from.driver.list(dir, cursor === undefined ? {} : { cursor }));
        // Drivers' own files are not copied, as they are not listed (vfs/listing.ts).
        const entries = page.entries.filter((entry) => !isHiddenName(entry.name));
        const shown = bound
          ? await rules.visible(
              principal,
              virtualDir,
              entries.map((entry) => ({
                entry,
                name: entry.path.slice(entry.path.lastIndexOf('/') + 1),
              })),
            )
          : entries.map((entry) => ({ entry }));
        if (shown.length < entries.length) filtered = true;
        for (const { entry } of shown) {
          const target = joinPath(to.subPath, entry.path.slice(from.subPath.length + 1));
          if (entry.isDirectory) {
            // A folder under rules is made once they let the caller in (above).
            if (!bound) dirs.push(target);
            pending.push(entry.path);
          } else {
            files.push({ from: entry.path, to: target, size: entry.size });
          }
        }
        cursor = page.cursor;
      } while (cursor !== undefined);
    }
    return { files, dirs, filtered };
  }

  private async copyFile(
    from: Held,
    to: Held,
    job: FileJob,
    context: {
      sameStorage: boolean;
      move: boolean;
      skipExisting: boolean;
      item: CopyItem;
      progress: Progress;
      signal: AbortSignal;
    },
  ): Promise<void> {
    const { sameStorage, move, skipExisting, item, progress, signal } = context;
    if (signal.aborted) throw new Cancelled();
    const there = await statIfAny(to.driver, job.to);
    if (there?.isDirectory) throw conflict('fs.is_a_directory');
    if (there && skipExisting) {
      item.skipped++;
      progress.filesSkipped++;
      progress.bytesDone += job.size;
      return;
    }
    const source = { configId: from.config.id, path: job.from };
    const target = { configId: to.config.id, path: job.to };
    // A copy adds bytes to the target's storage (a move within one storage does not): reserved first.
    const reservation = sameStorage && move ? undefined : await this.deps.mutations.reserve(to, job.size);
    try {
      const written = await this.transfer(from, to, job, { sameStorage, move, progress, signal });
      // What was at the target now holds these bytes; a moved file's shares come along. (What a
      // move that replaced a file did to the quota's count is counted again: vfs/quota.ts.)
      const replaced = move ? {} : { previousSize: there?.size ?? 0 };
      if (there) await this.deps.report({ kind: 'written', at: target, ...written, ...replaced });
      await this.deps.report(
        move
          ? { kind: 'moved', from: source, to: target }
          : { kind: 'written', at: target, ...written, ...replaced },
      );
    } finally {
      await reservation?.release();
    }
    item.done++;
    progress.filesDone++;
  }

  /** Sends one file's bytes to the target (a storage's own copy or move, or a stream between two). */
  private async transfer(
    from: Held,
    to: Held,
    job: FileJob,
    context: { sameStorage: boolean; move: boolean; progress: Progress; signal: AbortSignal },
  ): Promise<{ size: number; etag: string | undefined }> {
    const { sameStorage, move, progress, signal } = context;
    let written: { size: number; etag: string | undefined } = { size: job.size, etag: undefined };
    if (sameStorage) {
      await storageOp(() => (move ? from.driver.move(job.from, job.to) : from.driver.copy(job.from, job.to)));
      progress.bytesDone += job.size;
    } else {
      const read = await storageOp(() => from.driver.read(job.from));
      const body = abortable(read.body, signal, (bytes) => (progress.bytesDone += bytes));
      try {
        const result = await to.driver.write(job.to, body, {
          size: read.size,
          ...(read.contentType ? { contentType: read.contentType } : {}),
        });
        written = { size: result.size, etag: result.etag };
      } catch (error) {
        if (signal.aborted) throw new Cancelled();
        throw error;
      }
      if (move) await storageOp(() => from.driver.remove(job.from));
    }
    return written;
  }
}

/** The same bytes, counted; the stream errors as soon as `signal` aborts (a write in flight then fails). */
function abortable(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onBytes: (bytes: number) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let stop: (() => void) | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        stop = () => {
          controller.error(new Cancelled());
          void reader.cancel().catch(() => undefined);
        };
        signal.addEventListener('abort', stop, { once: true });
      },
      async pull(controller) {
        const { done, value } = await reader.read();
        if (signal.aborted) return;
        if (done) {
          signal.removeEventListener('abort', stop!);
          controller.close();
        } else {
          onBytes(value.byteLength);
          controller.enqueue(value);
        }
      },
      async cancel(reason) {
        signal.removeEventListener('abort', stop!);
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
