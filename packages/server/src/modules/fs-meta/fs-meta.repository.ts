/** SQL for folder rules (the `fs_meta` table; vfs/folder-rules.ts applies them). */
import type { Kysely, Updateable } from 'kysely';
import type { Database, FsMetaTable } from '../../db/schema.ts';
import type { FolderRuleRecord } from '../../vfs/vfs.ts';

/** A stored list of patterns; anything unreadable is no pattern at all. */
export function patternsOf(row: Pick<FsMetaTable, 'hide_patterns'>): string[] {
  try {
    const parsed: unknown = JSON.parse(row.hide_patterns);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** A stored rule as the vfs applies it (booleans, the patterns as a list). */
export function recordOf(row: FsMetaTable): FolderRuleRecord {
  return {
    path: row.path,
    header_markdown: row.header_markdown,
    header_inherit: row.header_inherit === 1,
    footer_markdown: row.footer_markdown,
    footer_inherit: row.footer_inherit === 1,
    hide_patterns: patternsOf(row),
    hide_inherit: row.hide_inherit === 1,
    password_hash: row.password_hash,
    password_inherit: row.password_inherit === 1,
  };
}

export class FsMetaRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<FsMetaTable[]> {
    return this.db.selectFrom('fs_meta').selectAll().orderBy('path').execute();
  }

  find(id: string): Promise<FsMetaTable | undefined> {
    return this.db.selectFrom('fs_meta').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: FsMetaTable): Promise<void> {
    await this.db.insertInto('fs_meta').values(row).execute();
  }

  async update(id: string, changes: Updateable<FsMetaTable>): Promise<void> {
    await this.db.updateTable('fs_meta').set(changes).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('fs_meta').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Every rule as the vfs applies it (its FolderRuleSource). */
  async all(): Promise<FolderRuleRecord[]> {
    return (await this.list()).map(recordOf);
  }
}
