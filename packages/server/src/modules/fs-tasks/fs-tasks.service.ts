/**
 * Copy and move tasks: the server copies files and folders between any two places of the virtual
 * tree, on one storage or across storages, as a task recorded in the database.
 *
 * - Every path of a task is checked for the caller when the task is created (a key stays inside its
 *   base path), before any storage call. A target is the new path of its source (a trailing `/`
 *   marks a folder, as in CloudPaste); a file whose target ends in `/` goes into that folder.
 * - Within one storage config the storage copies by itself (S3 CopyObject, a local file copy);
 *   across storages each file is streamed from one driver into the other, never held in memory. A
 *   driver write is atomic, so a cancelled or failed copy leaves nothing under the target name.
 * - Progress (files and bytes) is written to the task as it goes; cancelling aborts the copy in flight.
 * - A failed task can be run again (`retry`): only its items that did not succeed, and of a folder
 *   only the files that failed when it knows them (up to FAILED_FILES_LISTED); what was copied stays
 *   as it is. The progress then counts that run. Finished tasks are cleared per owner.
 * - A task runs in the process that created it. One left unfinished by a process that is gone is
 *   marked failed (`failOrphans`, at start and periodically), never reported as done.
 */
import { randomUUID } from 'node:crypto';
import { creatorId, type FsTaskAnswer, isNormalizedPathWithin, type Principal } from '@cubby/shared';
import type { Logger } from 'pino';
import type { FsTasksTable } from '../../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors/app-error.ts';
import { isMessageKey, translate, type Lang } from '../../errors/messages.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatTag, parseTag, processState, THIS_PROCESS } from '../../lib/process-tag.ts';
import { type Entry, isStorageError } from '../../storage/driver.ts';
import { joinPath, parentOf } from '../../storage/driver-path.ts';
import { fsStorageFailure, type MountedPath, placeOf, storageOp, type Vfs } from '../../vfs/vfs.ts';
import type { FsTasksRepository } from './fs-tasks.repository.ts';

export type TaskKind = FsTasksTable['kind'];
export type ItemStatus = 'pending' | 'running' | 'done' | 'skipped' | 'failed' | 'cancelled';

/** One thing to copy, as stored: canonical virtual paths, and how it went. */
export interface FsTaskItem {
  sourcePath: string;
  targetPath: string;
  isDirectory: boolean;
  status: ItemStatus;
  /** Files copied, skipped and failed inside it (a file item counts itself). */
  done: number;
  skipped: number;
  failed: number;
  /** A message key. */
  error?: string;
  /**
   * Inside a folder: the files (paths below it) whose copy failed, for a retry; it names them all
   * only while `failed` is at most FAILED_FILES_LISTED.
   */
  failedFiles?: string[];
  /** While a retry runs: the only files of the folder it copies (its `failedFiles` before). */
  onlyFiles?: string[];
}

export interface FsTaskInput {
  kind?: TaskKind | undefined;
  items?: Array<{ sourcePath?: string | undefined; targetPath?: string | undefined }> | undefined;
  skipExisting?: boolean | undefined;
}

/** A task as the API answers it. */
export interface FsTaskView {
  id: string;
  kind: TaskKind;
  status: FsTasksTable['status'];
  skipExisting: boolean;
  items: Array<Omit<FsTaskItem, 'error' | 'onlyFiles'> & { error?: string }>;
  progress: Progress;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface FsTasksDeps {
  repo: FsTasksRepository;
  vfs: Vfs;
  clock: Clock;
  logger: Logger;
  /** Tasks running at once in this process (default 2); more wait in order. */
  concurrency?: number;
  /** How often progress is written while a task runs (default 500 ms). */
  progressEveryMs?: number;
}

/** Files of one folder copied at a time. */
const FILES_AT_ONCE = 8;
/** Most items one task takes. */
export const MAX_TASK_ITEMS = 1000;
/** A task of another process that has not moved for this long is taken for dead. */
const SILENT_AFTER_MS = 10 * 60_000;
/** Failed files a folder item names for a retry; past that a retry copies the whole folder again. */
export const FAILED_FILES_LISTED = 100;

interface Running {
  abort: AbortController;
  done: Promise<void>;
}

/** Files and bytes of a task (its answer's `progress`, packages/shared). */
export type Progress = FsTaskAnswer['progress'];

/** A file to copy inside a folder item: driver paths on both sides. */
interface FileJob {
  from: string;
  to: string;
  size: number;
}

class Cancelled extends Error {}

/**
 * What a failed item keeps of its error: the message key, followed by its parameters as JSON when it
 * has any (a quota's numbers, a locked path), so {@link messageText} can say it in full later.
 */
const errorKey = (error: unknown): string => {
  const answer = fsStorageFailure(error);
  if (answer instanceof AppError) {
    return Object.keys(answer.params).length > 0
      ? `${answer.messageKey} ${JSON.stringify(answer.params)}`
      : answer.messageKey;
  }
  if (error instanceof Cancelled) return 'fs.task_cancelled';
  return 'common.internal';
};

export class FsTasksService {
  private readonly running = new Map<string, Running>();
  /** Set by {@link stopAll}: tasks stopped now were interrupted, not cancelled by anyone. */
  private stopping = false;
  private readonly waiting: Array<() => void> = [];
  private active = 0;

  constructor(private readonly deps: FsTasksDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  // ---- the API ---------------------------------------------------------------------------------

  /**
   * Checks every item for the caller (400/403/404 before anything is copied), records the task and
   * starts it; answers at once.
   */
  async create(principal: Principal, input: FsTaskInput): Promise<FsTaskView> {
    const { row, run } = await this.prepare(principal, input);
    void run!();
    return view(row!);
  }

  /**
   * Like {@link create}, but answers when the task has ended (CloudPaste's batch-copy). As there, an
   * item that cannot be copied (missing, invalid) is reported failed instead of refusing the batch;
   * a path outside a key's base path still refuses it all (403).
   */
  async runToEnd(
    principal: Principal,
    input: FsTaskInput,
  ): Promise<{ task?: FsTaskView; refused: FsTaskItem[] }> {
    const refused: FsTaskItem[] = [];
    const { row, run } = await this.prepare(principal, input, refused);
    if (!row) return { refused };
    await run!();
    return { task: view((await this.deps.repo.find(row.id)) ?? row), refused };
  }

  private async prepare(principal: Principal, input: FsTaskInput, refused?: FsTaskItem[]) {
    if (!input.items || input.items.length === 0) throw badRequest('fs.copy_items_required');
    if (input.items.length > MAX_TASK_ITEMS) throw badRequest('fs.copy_too_many_items');
    const items: FsTaskItem[] = [];
    for (const item of input.items) {
      try {
        items.push(await this.plan(principal, item, input.kind === 'move'));
      } catch (error) {
        if (!refused || !(error instanceof AppError) || error.status === 403) throw error;
        refused.push({
          sourcePath: item.sourcePath ?? '',
          targetPath: item.targetPath ?? '',
          isDirectory: false,
          status: 'failed',
          done: 0,
          skipped: 0,
          failed: 1,
          error: error.messageKey,
        });
      }
    }
    if (items.length === 0) return { row: undefined, run: undefined };
    const now = this.now();
    const row: FsTasksTable = {
      id: randomUUID(),
      kind: input.kind ?? 'copy',
      owner: creatorId(principal),
      skip_existing: input.skipExisting === false ? 0 : 1,
      created_at: now,
      ...runStart(items, now),
    };
    await this.deps.repo.insert(row);
    return { row, run: this.launch(principal, row, items) };
  }

  /** Registers a task as running here and answers the function that runs it to its end. */
  private launch(principal: Principal, row: FsTasksTable, items: FsTaskItem[]) {
    const abort = new AbortController();
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.running.set(row.id, { abort, done });
    return async () => {
      try {
        await this.slot();
        await this.execute(principal, row, items, abort.signal);
      } catch (error) {
        this.deps.logger.error({ err: error, task: row.id }, 'a copy task failed');
        await this.deps.repo.failUnfinished(row.id, 'common.internal', this.now()).catch(() => undefined);
      } finally {
        this.release();
        this.running.delete(row.id);
        finish();
      }
      return done;
    };
  }

  /** One item, checked: the source exists and may be read, the target may be written. */
  private async plan(
    principal: Principal,
    item: { sourcePath?: string | undefined; targetPath?: string | undefined },
    move: boolean,
  ): Promise<FsTaskItem> {
    if (!item.sourcePath || !item.targetPath) throw badRequest('fs.copy_paths_required');
    const { at: from, entry } = await this.deps.vfs.stat(principal, item.sourcePath);
    if (from.subPath === '/') throw badRequest('fs.copy_mount_root');
    if (move)
      await this.deps.vfs.assertUnlocked(principal, [{ path: from.path, below: true, membership: true }]);
    // The target is the new path (CloudPaste's rule; a trailing `/` marks a folder). A file whose
    // target ends in `/` goes into that folder under its own name.
    const into = !entry.isDirectory && item.targetPath.endsWith('/');
    const target = into ? `${item.targetPath}${entry.name}` : item.targetPath;
    const to = await this.deps.vfs.resolveWritable(principal, target);
    if (to.path === from.path) throw badRequest('fs.same_path');
    if (entry.isDirectory && isNormalizedPathWithin(from.path, to.path)) {
      throw badRequest('fs.copy_into_itself');
    }
    return {
      sourcePath: from.path,
      targetPath: to.path,
      isDirectory: entry.isDirectory,
      status: 'pending',
      done: 0,
      skipped: 0,
      failed: 0,
    };
  }

  /** The tasks a caller sees: an admin every task, a key its own. */
  async list(principal: Principal): Promise<FsTaskView[]> {
    const rows = await this.deps.repo.list(principal.type === 'admin' ? undefined : creatorId(principal));
    return rows.map(view);
  }

  async get(principal: Principal, id: string): Promise<FsTaskView> {
    return view(await this.own(principal, id));
  }

  /**
   * Cancels a pending or running task (answers it once it has stopped); a finished task's record is
   * deleted instead.
   */
  async cancel(principal: Principal, id: string): Promise<{ deleted: boolean; task: FsTaskView }> {
    const row = await this.own(principal, id);
    const live = this.running.get(id);
    if (live) {
      live.abort.abort(new Cancelled());
      await live.done;
      return { deleted: false, task: view((await this.deps.repo.find(id))!) };
    }
    if (row.status === 'pending' || row.status === 'running') {
      // Another process runs it: it cannot be stopped from here.
      throw conflict('fs.task_elsewhere');
    }
    await this.deps.repo.delete(id);
    return { deleted: true, task: view(row) };
  }

  /**
   * Runs a failed task again: its items that did not succeed (each checked again for the caller
   * before anything is copied), and of a folder that names its failed files only those; items done
   * or skipped are not touched. 409 unless the task has failed.
   */
  async retry(principal: Principal, id: string): Promise<FsTaskView> {
    const row = await this.own(principal, id);
    if (row.status !== 'failed' || this.running.has(id)) throw conflict('fs.task_not_retryable');
    const items = JSON.parse(row.items) as FsTaskItem[];
    for (const item of items) {
      if (item.status === 'done' || item.status === 'skipped') continue;
      await this.deps.vfs.resolveMounted(principal, item.sourcePath, 'read');
      await this.deps.vfs.resolveWritable(principal, item.targetPath);
      const listed = item.status === 'failed' && item.failed > 0 && item.failedFiles?.length === item.failed;
      if (listed) item.onlyFiles = item.failedFiles;
      else {
        // Run again whole: what it counted is counted again.
        item.done = 0;
        item.skipped = 0;
      }
      item.status = 'pending';
      item.failed = 0;
      delete item.error;
      delete item.failedFiles;
    }
    const changes = runStart(items, this.now());
    if (!(await this.deps.repo.restartFailed(id, changes))) throw conflict('fs.task_not_retryable');
    const restarted: FsTasksTable = { ...row, ...changes };
    void this.launch(principal, restarted, items)();
    return view(restarted);
  }

  /** Deletes the caller's finished tasks (an admin's own, a key's own); returns how many went. */
  clearFinished(principal: Principal): Promise<number> {
    return this.deps.repo.deleteFinished(creatorId(principal));
  }

  private async own(principal: Principal, id: string): Promise<FsTasksTable> {
    const row = await this.deps.repo.find(id);
    if (!row || (principal.type !== 'admin' && row.owner !== creatorId(principal))) {
      throw notFound('fs.task_not_found');
    }
    return row;
  }

  /**
   * Marks failed the unfinished tasks whose process is gone (a restart, a crash) or that have not
   * moved for a long time; returns how many.
   */
  async failOrphans(): Promise<number> {
    const silentSince = this.deps.clock.now().getTime() - SILENT_AFTER_MS;
    let count = 0;
    for (const row of await this.deps.repo.unfinished()) {
      if (this.running.has(row.id)) continue;
      const state = processState(parseTag(row.runner));
      const gone = state === 'dead' || state === 'self';
      if (!gone && Date.parse(row.updated_at) > silentSince) continue;
      if (await this.deps.repo.failUnfinished(row.id, 'fs.task_interrupted', this.now())) count++;
    }
    return count;
  }

  /** Cancels every task of this process (shutdown) and waits until they have stopped. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    const live = [...this.running.values()];
    for (const task of live) task.abort.abort(new Cancelled());
    await Promise.all(live.map((task) => task.done));
  }

  // ---- running -------------------------------------------------------------------------------

  private slot(): Promise<void> {
    if (this.active < (this.deps.concurrency ?? 2)) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  private async execute(principal: Principal, row: FsTasksTable, items: FsTaskItem[], signal: AbortSignal) {
    const { repo } = this.deps;
    const progress: Progress = {
      filesTotal: 0,
      filesDone: 0,
      filesSkipped: 0,
      filesFailed: 0,
      bytesTotal: 0,
      bytesDone: 0,
    };
    const columns = () => ({
      items: JSON.stringify(items),
      files_total: progress.filesTotal,
      files_done: progress.filesDone,
      files_skipped: progress.filesSkipped,
      files_failed: progress.filesFailed,
      bytes_total: progress.bytesTotal,
      bytes_done: progress.bytesDone,
      updated_at: this.now(),
    });
    await repo.update(row.id, { status: 'running', updated_at: this.now() });
    let writing = Promise.resolve();
    const flush = () => {
      writing = writing.then(() => repo.update(row.id, columns())).catch(() => undefined);
    };
    const timer = setInterval(flush, this.deps.progressEveryMs ?? 500);
    timer.unref();
    try {
      for (const item of items) {
        // A retry leaves what worked as it is.
        if (item.status === 'done' || item.status === 'skipped') continue;
        if (signal.aborted) {
          item.status = 'cancelled';
          continue;
        }
        item.status = 'running';
        try {
          await this.runItem(principal, row, item, progress, signal);
          item.status = item.failed > 0 ? 'failed' : item.done === 0 && item.skipped > 0 ? 'skipped' : 'done';
        } catch (error) {
          if (signal.aborted) {
            item.status = 'cancelled';
          } else {
            item.status = 'failed';
            item.error = errorKey(error);
            if (item.error === 'common.internal') {
              this.deps.logger.error({ err: error, task: row.id }, 'a copy task item failed');
            }
          }
        }
        flush();
      }
    } finally {
      clearInterval(timer);
      await writing;
    }
    const failed = items.filter((i) => i.status === 'failed').length;
    const interrupted = signal.aborted && this.stopping;
    const status: FsTasksTable['status'] = interrupted
      ? 'failed'
      : signal.aborted
        ? 'cancelled'
        : failed > 0
          ? 'failed'
          : 'done';
    const now = this.now();
    await repo.update(row.id, {
      ...columns(),
      status,
      error: interrupted ? 'fs.task_interrupted' : status === 'failed' ? 'fs.task_items_failed' : null,
      finished_at: now,
    });
  }

  /** Copies (or moves) one item: a file, or a folder with everything in it. */
  private async runItem(
    principal: Principal,
    row: FsTasksTable,
    item: FsTaskItem,
    progress: Progress,
    signal: AbortSignal,
  ): Promise<void> {
    const { vfs } = this.deps;
    const move = row.kind === 'move';
    const skipExisting = row.skip_existing === 1;
    const from = await vfs.resolveMounted(principal, item.sourcePath, 'read');
    // A moved source goes from its place: a lock on it binds as on any write.
    if (move) await vfs.assertUnlocked(principal, [{ path: from.path, below: true, membership: true }]);
    const to = await vfs.resolveWritable(principal, item.targetPath);
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
        : await this.walk(from, to, signal);
      progress.filesTotal += jobs.files.length;
      progress.bytesTotal += jobs.files.reduce((sum, f) => sum + f.size, 0);
      const targetExists = await exists(to);
      if (sameStorage && !targetExists && !item.onlyFiles) {
        // The storage copies (or moves) the whole folder itself.
        await storageOp(() =>
          (move ? from.driver.move : from.driver.copy).call(from.driver, from.subPath, to.subPath),
        );
        await vfs.report(
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
        if (made) await vfs.report({ kind: 'made', at: { configId: to.config.id, path: dir } });
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
      // had it) or failed, and stays. Only the folders the move emptied go, deepest first.
      if (move && !signal.aborted) await this.removeEmptied(from, to, jobs.dirs);
    } catch (error) {
      // Whatever a failure left halfway, no listing of either side is trusted any longer.
      await vfs.forgetAround(placeOf(to), ...(move ? [placeOf(from)] : []));
      throw error;
    } finally {
      delete item.onlyFiles;
    }
  }

  /** The files a retry copies again (paths below a folder item), with the folders they go into. */
  private async listed(from: MountedPath, to: MountedPath, files: string[]) {
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
    return { files: jobs, dirs: [...dirs] };
  }

  /** Every folder (to create) and file (to copy) below a folder item, with their target paths. */
  /** Removes the source folders of `targetDirs` (and the source itself) that a move left empty. */
  private async removeEmptied(from: MountedPath, to: MountedPath, targetDirs: string[]): Promise<void> {
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
      if (removed)
        await this.deps.vfs.report({ kind: 'deleted', at: { configId: from.config.id, path: dir } });
    }
  }

  private async walk(from: MountedPath, to: MountedPath, signal: AbortSignal) {
    const files: FileJob[] = [];
    const dirs: string[] = [to.subPath];
    const pending = [from.subPath];
    while (pending.length > 0) {
      const dir = pending.shift()!;
      let cursor: string | undefined;
      do {
        if (signal.aborted) throw new Cancelled();
        const page = await storageOp(() => from.driver.list(dir, cursor === undefined ? {} : { cursor }));
        for (const entry of page.entries) {
          const target = joinPath(to.subPath, entry.path.slice(from.subPath.length + 1));
          if (entry.isDirectory) {
            dirs.push(target);
            pending.push(entry.path);
          } else {
            files.push({ from: entry.path, to: target, size: entry.size });
          }
        }
        cursor = page.cursor;
      } while (cursor !== undefined);
    }
    return { files, dirs };
  }

  private async copyFile(
    from: MountedPath,
    to: MountedPath,
    job: FileJob,
    context: {
      sameStorage: boolean;
      move: boolean;
      skipExisting: boolean;
      item: FsTaskItem;
      progress: Progress;
      signal: AbortSignal;
    },
  ): Promise<void> {
    const { sameStorage, move, skipExisting, item, progress, signal } = context;
    if (signal.aborted) throw new Cancelled();
    const there = await to.driver.stat(job.to).then(
      (entry: Entry) => entry,
      (error: unknown) => {
        if (isStorageError(error, 'NOT_FOUND')) return undefined;
        throw error;
      },
    );
    if (there?.isDirectory) throw new AppError(409, 'CONFLICT', 'fs.is_a_directory');
    if (there && skipExisting) {
      item.skipped++;
      progress.filesSkipped++;
      progress.bytesDone += job.size;
      return;
    }
    const source = { configId: from.config.id, path: job.from };
    const target = { configId: to.config.id, path: job.to };
    // A copy adds bytes to the target's storage (a move within one storage does not): reserved first.
    const reservation = sameStorage && move ? undefined : await this.deps.vfs.reserve(to, job.size);
    try {
      const written = await this.transfer(from, to, job, { sameStorage, move, progress, signal });
      // What was at the target now holds these bytes; a moved file's shares come along. (What a
      // move that replaced a file did to the quota's count is counted again: vfs/quota.ts.)
      const replaced = move ? {} : { previousSize: there?.size ?? 0 };
      if (there) await this.deps.vfs.report({ kind: 'written', at: target, ...written, ...replaced });
      await this.deps.vfs.report(
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
    from: MountedPath,
    to: MountedPath,
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

/** A task's columns as a run of it starts (the first, or a retry): pending here, nothing counted. */
function runStart(items: FsTaskItem[], now: string) {
  return {
    status: 'pending' as const,
    items: JSON.stringify(items),
    files_total: 0,
    files_done: 0,
    files_skipped: 0,
    files_failed: 0,
    bytes_total: 0,
    bytes_done: 0,
    error: null,
    runner: formatTag(THIS_PROCESS),
    updated_at: now,
    finished_at: null,
  };
}

/** Whether anything is at a mounted path. */
async function exists(at: MountedPath): Promise<boolean> {
  return at.driver.stat(at.subPath).then(
    () => true,
    (error: unknown) => {
      if (isStorageError(error, 'NOT_FOUND')) return false;
      throw error;
    },
  );
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

function view(row: FsTasksTable): FsTaskView {
  const items = (JSON.parse(row.items) as FsTaskItem[]).map(({ onlyFiles: _only, ...item }) => item);
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    skipExisting: row.skip_existing === 1,
    items,
    progress: {
      filesTotal: row.files_total,
      filesDone: row.files_done,
      filesSkipped: row.files_skipped,
      filesFailed: row.files_failed,
      bytesTotal: row.bytes_total,
      bytesDone: row.bytes_done,
    },
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

/** The text of a stored message key in `lang` (a key the catalogue no longer has stays as it is). */
export function messageText(stored: string, lang: Lang): string {
  const space = stored.indexOf(' ');
  const key = space < 0 ? stored : stored.slice(0, space);
  if (!isMessageKey(key)) return stored;
  let params: Record<string, string | number> = {};
  if (space >= 0) {
    try {
      params = JSON.parse(stored.slice(space + 1)) as Record<string, string | number>;
    } catch {
      return stored;
    }
  }
  return translate(key, lang, params);
}

/** A task with its message keys (task and items) turned into text in `lang`. */
export function localized(task: FsTaskView, lang: Lang): FsTaskView {
  return {
    ...task,
    error: task.error === null ? null : messageText(task.error, lang),
    items: task.items.map((item) => (item.error ? { ...item, error: messageText(item.error, lang) } : item)),
  };
}
