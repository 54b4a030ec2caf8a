/**
 * The copy and move tasks (kept by the server, so a reload finds them): each with its state, a
 * progress bar of bytes and counts of files, the result of each item, Cancel while it runs, Remove
 * once it has ended and, when it failed, Retry of only what failed; Clear finished removes every
 * task of the caller's that has ended.
 */
import { formatBytes, type FsTaskAnswer } from '@cubby/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Badge, type BadgeTone } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { EmptyState } from '../../../components/list-states.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import {
  clearFinishedTasks,
  dropTask,
  fsKeys,
  isTaskActive,
  retryTask,
  useTasks,
  type FsTree,
} from '../api/fs-api.ts';
import { Modified } from './entry-views.tsx';
import { refreshAfterChange } from '../../../lib/query/refresh.ts';

const TONES: Record<FsTaskAnswer['status'], BadgeTone> = {
  pending: 'muted',
  running: 'accent',
  done: 'success',
  failed: 'danger',
  cancelled: 'warning',
};

function TaskCard({ tree, task }: { tree: FsTree; task: FsTaskAnswer }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const settled = () => refreshAfterChange(client, { queryKey: fsKeys.tasks(tree) });
  const drop = useMutation({ mutationFn: () => dropTask(tree, task.id), onSettled: settled });
  const retry = useMutation({
    mutationFn: () => retryTask(tree, task.id),
    onError: (error) => showToast(error.message, 'error'),
    onSettled: settled,
  });
  const retryHint = useId();
  const { progress } = task;
  const percent = progress.bytesTotal > 0 ? Math.round((progress.bytesDone / progress.bytesTotal) * 100) : 0;
  const first = task.items[0];
  const active = isTaskActive(task);
  return (
    <li className="rounded-lg border border-border p-3" data-testid="task-card" data-status={task.status}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={TONES[task.status]}>{t(`explorer.tasks.status.${task.status}`)}</Badge>
        <span className="text-sm font-medium text-fg">
          {t(`explorer.tasks.kind.${task.kind}`, { count: task.items.length })}
        </span>
        <span className="ml-auto text-xs text-fg-muted">
          <Modified iso={task.createdAt} />
        </span>
      </div>
      {first && (
        <p className="mt-1 truncate text-xs text-fg-muted" data-user-content="">
          {first.sourcePath} → {first.targetPath}
        </p>
      )}
      <div
        role="progressbar"
        aria-label={t('explorer.tasks.progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={task.status === 'done' ? 100 : percent}
        className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-sunken"
      >
        <div
          className={`h-full ${task.status === 'failed' ? 'bg-danger' : 'bg-accent'}`}
          style={{ width: `${task.status === 'done' ? 100 : percent}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-fg-muted" data-testid="task-counts">
        {t('explorer.tasks.counts', {
          done: progress.filesDone,
          total: progress.filesTotal,
          skipped: progress.filesSkipped,
          failed: progress.filesFailed,
        })}{' '}
        · <span data-user-content="">{formatBytes(progress.bytesDone)}</span> /{' '}
        <span data-user-content="">{formatBytes(progress.bytesTotal)}</span>
      </p>
      {task.error && (
        <Alert tone="error" className="mt-2">
          {task.error}
        </Alert>
      )}
      {task.items.some((item) => item.error) && (
        <ul className="mt-2 space-y-1 text-xs text-danger-text">
          {task.items
            .filter((item) => item.error)
            .map((item) => (
              <li key={item.sourcePath}>
                <span data-user-content="">{item.sourcePath}</span>: {item.error}
              </li>
            ))}
        </ul>
      )}
      <div className="mt-2 flex flex-wrap items-center justify-end gap-2">
        {task.status === 'failed' && (
          <>
            <span id={retryHint} className="sr-only">
              {t('explorer.tasks.retryHint')}
            </span>
            <Button
              size="sm"
              variant="secondary"
              disabled={retry.isPending}
              onClick={() => retry.mutate()}
              title={t('explorer.tasks.retryHint')}
              aria-describedby={retryHint}
              data-testid="task-retry"
            >
              {t('explorer.tasks.retry')}
            </Button>
          </>
        )}
        <Button
          size="sm"
          variant={active ? 'danger' : 'ghost'}
          disabled={drop.isPending}
          onClick={() => drop.mutate()}
          data-testid={active ? 'task-cancel' : 'task-remove'}
        >
          {active ? t('explorer.tasks.cancel') : t('explorer.tasks.remove')}
        </Button>
      </div>
    </li>
  );
}

export function TasksDialog({ tree, onClose }: { tree: FsTree; onClose(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const tasks = useTasks(tree);
  const clear = useMutation({
    mutationFn: () => clearFinishedTasks(tree),
    onSuccess: ({ clearedCount }) =>
      showToast(t('explorer.tasks.cleared', { count: clearedCount }), 'success'),
    onError: (error) => showToast(error.message, 'error'),
    onSettled: () => refreshAfterChange(client, { queryKey: fsKeys.tasks(tree) }),
  });
  const finished = tasks.data?.some((task) => !isTaskActive(task)) ?? false;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('explorer.tasks.title')}
      testId="tasks-dialog"
    >
      {tasks.isPending ? (
        <PageLoading />
      ) : tasks.error ? (
        <Alert tone="error">{tasks.error.message}</Alert>
      ) : tasks.data.length === 0 ? (
        <EmptyState title={t('explorer.tasks.none')} description={t('explorer.tasks.noneHint')} />
      ) : (
        <>
          {finished && (
            <div className="mb-3 flex justify-end">
              <Button
                size="sm"
                variant="secondary"
                disabled={clear.isPending}
                onClick={() => clear.mutate()}
                title={t('explorer.tasks.clearFinishedHint')}
                data-testid="tasks-clear-finished"
              >
                {t('explorer.tasks.clearFinished')}
              </Button>
            </div>
          )}
          <ul className="space-y-3">
            {tasks.data.map((task) => (
              <TaskCard key={task.id} tree={tree} task={task} />
            ))}
          </ul>
        </>
      )}
    </Dialog>
  );
}
