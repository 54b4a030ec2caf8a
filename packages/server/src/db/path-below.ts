import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * `column` holds a path strictly below the folder `dir` ("/a" → "/a/…"), on SQLite and PostgreSQL
 * alike (both count characters in substr). No LIKE: `%` and `_` are ordinary characters in names.
 */
export function pathBelow(column: string, dir: string) {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  return sql<boolean>`substr(${sql.ref(column)}, 1, ${[...prefix].length}) = ${prefix}`;
}

/**
 * Rows of `table` that name a place in storage (`storage_config_id`, `storage_path`) at `from` or
 * below it now name the same place under `to` (a file or folder moved, any storage): file shares and
 * folder shares follow what they share this way (vfs/changes.ts).
 */
export async function movePlaceRows(
  db: Kysely<Database>,
  table: 'files' | 'folder_shares',
  from: { configId: string; path: string },
  to: { configId: string; path: string },
): Promise<void> {
  // Both tables have the two columns; Kysely types one table at a time.
  const rows = table as 'files';
  await db
    .updateTable(rows)
    .set({ storage_config_id: to.configId, storage_path: to.path })
    .where('storage_config_id', '=', from.configId)
    .where('storage_path', '=', from.path)
    .execute();
  const cut = [...from.path].length + 1;
  await db
    .updateTable(rows)
    .set({
      storage_config_id: to.configId,
      storage_path: sql<string>`${to.path} || substr(storage_path, ${cut})`,
    })
    .where('storage_config_id', '=', from.configId)
    .where(() => pathBelow('storage_path', from.path))
    .execute();
}
