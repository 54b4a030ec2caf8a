/**
 * Copy and move tasks: the server copies files and folders between any two places of the virtual
 * tree, on one storage or across storages, as a task recorded in the database.
 *
 * - Every path of a task is checked for the caller when the task is created (a key stays inside its
 *   base path), before any storage call. A target is the new path of its source (a trailing `/`
 *   marks a folder, as in CloudPaste); a file whose target ends in `/` goes into that folder.
 * - The copying itself is the vfs's copy engine (vfs/copy-engine.ts): the storage's own copy within
 *   one storage config, a stream between two drivers across storages, with the rules of every write.
 * - Progress (files and bytes) is written to the task as it goes; cancelling aborts the copy in flight.
 * - A failed task can be run again (`retry`): only its items that did not succeed, and of a folder
 *   only the files that failed when it knows them (up to FAILED_FILES_LISTED); what was copied stays
 *   as it is. The progress then counts that run. Finished tasks are cleared per owner.
 * - A task runs in the process that created it; a cancel through another instance reaches it by
 *   the cache bus (lib/stop-elsewhere.ts). One left unfinished by a process that is gone is marked
 *   failed (`failOrphans`, at start and periodically), never reported as done.
 */
import { randomUUID } from 'node:crypto';
import { creatorId, isNormalizedPathWithin, type Principal } from '@cubby/shared';
import type { Logger } from 'pino';
import type { FsTasksTable } from '../../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors/app-error.ts';
import { isMessageKey, translate, type Lang } from '../../errors/messages.ts';
import type { CacheBus } from '../../lib/cache-bus.ts';
import type { Clock } from '../../lib/clock.ts';
import { stopElsewhere } from '../../lib/stop-elsewhere.ts';
import { formatTag, parseTag, processState, THIS_PROCESS } from '../../lib/process-tag.ts';
import { Cancelled, type CopyItem, errorKey, noProgress, type Progress } from '../../vfs/copy-engine.ts';
import type { Vfs } from '../../vfs/vfs.ts';
import type { FsTasksRepository } from './fs-tasks.repository.ts';

export type TaskKind = FsTasksTable['kind'];
export type ItemStatus = 'pending' | 'running' | 'done' | 'skipped' | 'failed' | 'cancelled';

/** One thing to copy, as stored: canonical virtual paths, and how it went (vfs/copy-engine.ts). */
export interface FsTaskItem extends CopyItem {
  isDirectory: boolean;
  status: ItemStatus;
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
  /** Reaches the instance running a task to cancel it there (none: one instance). */
  bus?: CacheBus;
}

/** Most items one task takes. */
export const MAX_TASK_ITEMS = 1000;
/** A task of another process that has not moved for this long is taken for dead. */
const SILENT_AFTER_MS = 10 * 60_000;
export { FAILED_FILES_LISTED } from '../../vfs/copy-engine.ts';

interface Running {
  abort: AbortController;
  done: Promise<void>;
}

export type { Progress };

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
      // Another instance runs it: asked to stop it there; answered once it has.
      const unfinished = (status?: string) => status === 'pending' || status === 'running';
      const stopped = await stopElsewhere(this.deps.bus, id, async () => {
        return !unfinished((await this.deps.repo.find(id))?.status);
      });
      if (!stopped) throw conflict('fs.task_elsewhere');
      return { deleted: false, task: view((await this.deps.repo.find(id))!) };
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

  /** Cancels task `id` if it runs in this process (asked through another instance). */
  stopHere(id: string): void {
    this.running.get(id)?.abort.abort(new Cancelled());
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
    const progress = noProgress();
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
          await this.deps.vfs.copyItem(principal, item, {
            move: row.kind === 'move',
            skipExisting: row.skip_existing === 1,
            progress,
            signal,
          });
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
