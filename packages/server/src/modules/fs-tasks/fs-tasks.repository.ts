/** SQL for copy and move tasks (migration 0007-fs-tasks). */
import type { Kysely, Updateable } from 'kysely';
import type { Database, FsTasksTable } from '../../db/schema.ts';

/** Most tasks a list answers (newest first). */
export const TASK_LIST_LIMIT = 100;

export class FsTasksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: FsTasksTable): Promise<void> {
    await this.db.insertInto('fs_tasks').values(row).execute();
  }

  find(id: string): Promise<FsTasksTable | undefined> {
    return this.db.selectFrom('fs_tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The newest tasks, of one owner or (undefined) of everyone. */
  list(owner: string | undefined): Promise<FsTasksTable[]> {
    let query = this.db.selectFrom('fs_tasks').selectAll();
    if (owner !== undefined) query = query.where('owner', '=', owner);
    return query.orderBy('created_at', 'desc').orderBy('id').limit(TASK_LIST_LIMIT).execute();
  }

  /** Tasks not finished: pending or running. */
  unfinished(): Promise<FsTasksTable[]> {
    return this.db.selectFrom('fs_tasks').selectAll().where('status', 'in', ['pending', 'running']).execute();
  }

  async update(id: string, changes: Updateable<FsTasksTable>): Promise<void> {
    await this.db.updateTable('fs_tasks').set(changes).where('id', '=', id).execute();
  }

  /** Marks a task failed only while it is still unfinished (a runner finishing meanwhile wins). */
  async failUnfinished(id: string, error: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('fs_tasks')
      .set({ status: 'failed', error, updated_at: now, finished_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('fs_tasks').where('id', '=', id).execute();
  }

  /** Starts a failed task again with `changes`; false when it is no longer failed (another retry won). */
  async restartFailed(id: string, changes: Updateable<FsTasksTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('fs_tasks')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes one owner's finished tasks (done, failed, cancelled); returns how many went. */
  async deleteFinished(owner: string): Promise<number> {
    const result = await this.db
      .deleteFrom('fs_tasks')
      .where('owner', '=', owner)
      .where('status', 'in', ['done', 'failed', 'cancelled'])
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
