/**
 * Watches the caller's copy and move tasks: when one ends, every listing is refreshed (its targets
 * and, for a move, its sources changed) and a toast says how it went. Answers how many still run.
 */
import type { FsTaskAnswer } from '@cubby/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/toast/toast-store.ts';
import { fsKeys, isTaskActive, useTasks, type FsTree } from './api/fs-api.ts';
import { refreshAfterChange } from '../../lib/query/refresh.ts';

export function useTaskWatch(tree: FsTree): number {
  const { t } = useTranslation();
  const client = useQueryClient();
  const tasks = useTasks(tree);
  // Tasks seen so far, and each one's run: under way, or when it ended; null before the first answer.
  const seen = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    if (!tasks.data) return;
    const before = seen.current;
    const run = (task: FsTaskAnswer) => (isTaskActive(task) ? 'active' : (task.finishedAt ?? 'ended'));
    seen.current = new Map(tasks.data.map((task) => [task.id, run(task)]));
    if (!before) return;
    // Ended since the last look: was running then, or is new, or ended again (a quick task, or a
    // retry, may start and end between two looks).
    const ended = tasks.data.filter((task) => !isTaskActive(task) && before.get(task.id) !== run(task));
    if (ended.length === 0) return;
    void refreshAfterChange(client, { queryKey: [...fsKeys.all(tree), 'list'] });
    for (const task of ended) {
      const tone = task.status === 'done' && task.progress.filesFailed === 0 ? 'success' : 'warning';
      const outcome = task.status === 'failed' || task.status === 'cancelled' ? task.status : 'done';
      showToast(t(`explorer.tasks.ended.${outcome}`, { count: task.progress.filesDone }), tone);
    }
  }, [tasks.data, client, tree, t]);
  return tasks.data?.filter(isTaskActive).length ?? 0;
}
