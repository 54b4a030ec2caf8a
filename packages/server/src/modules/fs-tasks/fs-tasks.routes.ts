/**
 * Copy and move tasks on both fs trees: /api/admin/fs/tasks (admin) and /api/user/fs/tasks (a key
 * with the mount permission: its own tasks, inside its base path), and CloudPaste's batch-copy and
 * batch-copy-commit, which run the same engine (docs/compatibility.md §6; we copy across storages
 * ourselves, so `crossStorageResults` is always empty).
 */
import type { Principal } from '@cubby/shared';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../http/context.ts';
import { badRequest } from '../../errors/app-error.ts';
import { json, ok, okWith } from '../../http/envelope.ts';
import { type MessageKey, translate } from '../../errors/messages.ts';
import { route } from '../../http/route-docs.ts';
import { placeOf, type Vfs } from '../../vfs/vfs.ts';
import { FS_TREES, pathTokens } from '../fs/fs-trees.ts';
import {
  type FsTaskItem,
  type FsTasksService,
  localized,
  MAX_TASK_ITEMS,
  messageText,
} from './fs-tasks.service.ts';

const PATH_MAX = 4096;
const itemSchema = z.object({
  sourcePath: z.string().max(PATH_MAX).optional(),
  targetPath: z.string().max(PATH_MAX).optional(),
});
const itemsSchema = z.array(itemSchema).max(MAX_TASK_ITEMS).optional();
const taskBody = z.object({
  kind: z.enum(['copy', 'move']).optional(),
  items: itemsSchema,
  skipExisting: z.boolean().optional(),
});
const batchCopyBody = z.object({ items: itemsSchema, skipExisting: z.boolean().optional() });
const commitBody = z.object({
  targetMountId: z.string().max(100).optional(),
  files: z
    .array(
      z.object({
        targetPath: z.string().max(PATH_MAX).optional(),
        s3Path: z.string().max(PATH_MAX).optional(),
      }),
    )
    .max(MAX_TASK_ITEMS)
    .optional(),
});

export function fsTasksRoutes(tasks: FsTasksService, vfs: Vfs) {
  const app = new Hono<AppEnv>();
  // With the folder-password tokens the request presented (vfs/folder-rules.ts).
  const principal = (c: Context<AppEnv>): Principal =>
    vfs.folderRules.withTokens(c.get('principal')!, pathTokens(c));
  const lang = (c: Context<AppEnv>) => c.get('lang') ?? 'zh';
  /** CloudPaste's batch answers: HTTP 200 always, `code` 202 and `success: false` when nothing worked. */
  const batchAnswer = (
    c: Context<AppEnv>,
    worked: boolean,
    key: MessageKey,
    params: Record<string, number>,
    data: unknown,
  ) => json(c, { code: worked ? 200 : 202, message: translate(key, lang(c), params), data, success: worked });

  for (const { prefix, doc } of FS_TREES) {
    app.post(
      `${prefix}/tasks`,
      route(
        {
          ...doc(
            'Starts a copy or move task of files and folders, on one storage or across storages; answers 202 with the task',
            '`{kind: "copy"|"move", items: [{sourcePath, targetPath}], skipExisting}` (skipExisting defaults to true). ' +
              '`targetPath` is the new path (a trailing `/` marks a folder); a file whose target ends in `/` goes into that folder. Every path is checked before anything is copied.',
          ),
          body: taskBody,
        },
        async (c, { body }) =>
          ok(c, 'fs.task_created', localized(await tasks.create(principal(c), body), lang(c)), 202),
      ),
    );

    app.get(
      `${prefix}/tasks`,
      route({ ...doc('The newest 100 tasks, with their progress') }, async (c) =>
        ok(
          c,
          'fs.tasks_listed',
          (await tasks.list(principal(c))).map((t) => localized(t, lang(c))),
        ),
      ),
    );

    app.get(
      `${prefix}/tasks/:id`,
      route({ ...doc('One task: state, items, files and bytes done') }, async (c) =>
        ok(c, 'fs.task_loaded', localized(await tasks.get(principal(c), c.req.param('id')!), lang(c))),
      ),
    );

    app.delete(
      `${prefix}/tasks/:id`,
      route(
        {
          ...doc(
            'Cancels a pending or running task (answers once it stopped; nothing half-written stays under a target name), or deletes a finished task’s record',
          ),
        },
        async (c) => {
          const { deleted, task } = await tasks.cancel(principal(c), c.req.param('id')!);
          return ok(c, deleted ? 'fs.task_deleted' : 'fs.task_cancelled', localized(task, lang(c)));
        },
      ),
    );

    app.post(
      `${prefix}/tasks/:id/retry`,
      route(
        {
          ...doc(
            'Runs a failed task again: only its items that did not succeed (of a folder only the files that failed); answers 202 with the task',
            'Items done or skipped stay as they are; each item is checked again for the caller. 409 unless the task has failed.',
          ),
        },
        async (c) =>
          ok(
            c,
            'fs.task_retried',
            localized(await tasks.retry(principal(c), c.req.param('id')!), lang(c)),
            202,
          ),
      ),
    );

    app.post(
      `${prefix}/tasks/clear`,
      route(
        {
          ...doc(
            "Deletes the caller's finished tasks (done, failed, cancelled; an admin's own, a key's own); answers `{clearedCount}`",
          ),
        },
        async (c) => {
          const count = await tasks.clearFinished(principal(c));
          return okWith(c, 'fs.tasks_cleared', { clearedCount: count }, {}, 200, { count });
        },
      ),
    );

    app.post(
      `${prefix}/batch-copy`,
      route(
        {
          ...doc(
            'CloudPaste’s batch copy: copies on the server (across storages too) and answers when done',
            'Answers `{success, skipped, failed:[{sourcePath, targetPath, error}], details, crossStorageResults: []}`; ' +
              'HTTP 200 always, `code` 202 when nothing was copied.',
          ),
          body: batchCopyBody,
        },
        async (c, { body }) => {
          const { task, refused } = await tasks.runToEnd(principal(c), { kind: 'copy', ...body });
          const items: FsTaskItem[] = [...(task?.items ?? []), ...refused];
          const text = (key: string) => messageText(key, lang(c));
          const success = items.reduce((n, i) => n + i.done, 0);
          const skipped = items.reduce((n, i) => n + i.skipped, 0);
          const failed = items
            .filter((i) => i.status === 'failed' || i.status === 'cancelled')
            .map((i) => ({
              sourcePath: i.sourcePath,
              targetPath: i.targetPath,
              error: text(i.error ?? 'fs.task_items_failed'),
            }));
          const details = items.map((i) => ({
            source: i.sourcePath,
            target: i.targetPath,
            status: i.status === 'done' ? 'success' : i.status === 'skipped' ? 'skipped' : 'failed',
            ...(i.error ? { error: text(i.error) } : {}),
            copied: i.done,
            skippedFiles: i.skipped,
            failedFiles: i.failed,
          }));
          const worked = success + skipped > 0;
          const key =
            failed.length === 0
              ? 'fs.batch_copy_done'
              : worked
                ? 'fs.batch_copy_partial'
                : 'fs.batch_copy_failed';
          return batchAnswer(
            c,
            worked,
            key,
            { success, skipped, failed: failed.length },
            {
              success,
              skipped,
              failed,
              details,
              crossStorageResults: [],
              ...(task ? { taskId: task.id } : {}),
            },
          );
        },
      ),
    );

    app.post(
      `${prefix}/batch-copy-commit`,
      route(
        {
          ...doc(
            'CloudPaste’s copy commit: confirms that each target exists (checked as any path) and refreshes its listings',
          ),
          body: commitBody,
        },
        async (c, { body }) => {
          if (!body.targetMountId || !body.files || body.files.length === 0) {
            throw badRequest('fs.copy_commit_params');
          }
          const success: Array<{ targetPath: string; fileName: string }> = [];
          const failed: Array<{ targetPath: string; error: string }> = [];
          for (const file of body.files) {
            if (!file.targetPath) {
              failed.push({ targetPath: '', error: translate('fs.copy_target_missing', lang(c)) });
              continue;
            }
            try {
              const { at, entry } = await vfs.stat(principal(c), file.targetPath);
              await vfs.report({ kind: 'written', at: placeOf(at), size: entry.size, etag: entry.etag });
              success.push({ targetPath: at.path, fileName: at.path.split('/').pop()! });
            } catch (error) {
              const key = (error as { messageKey?: MessageKey }).messageKey ?? 'fs.not_found';
              failed.push({ targetPath: file.targetPath, error: translate(key, lang(c)) });
            }
          }
          const worked = success.length > 0;
          const key =
            failed.length === 0
              ? 'fs.copy_commit_done'
              : worked
                ? 'fs.copy_commit_partial'
                : 'fs.copy_commit_failed';
          return batchAnswer(
            c,
            worked,
            key,
            { success: success.length, failed: failed.length },
            { success, failed },
          );
        },
      ),
    );
  }
  return app;
}
