/** SQL for text shares, including the one-statement view count. */
import { type Kysely, type Updateable, sql } from 'kysely';
import type { Database, PasteFilesTable, PastesTable } from '../../db/schema.ts';
import { createdByKey, creatorKeyName, likePattern, revokeShare, type Whose } from '../shares/share-rules.ts';
import type { SqliteWriteBatch } from '../../db/write-batch.ts';

export interface PasteListRow extends PastesTable {
  key_name: string | null;
}

export interface PasteFileInput {
  name: string;
  language: string;
  content: string;
}

export interface PublicPasteRow {
  id: string;
  slug: string;
  title: string | null;
  created_at: string;
  size: number;
  languages: string[];
}

async function insertFiles(db: Kysely<Database>, pasteId: string, files: PasteFileInput[]): Promise<void> {
  if (files.length === 0) return;
  await db
    .insertInto('paste_files')
    .values(files.map((f, position) => ({ paste_id: pasteId, position, ...f })))
    .execute();
}

/** The hottest statement of the app, written as SQL: the query builder costs more than the query. */
function countViewStatement(idOrSlug: string, byId: boolean, now: string) {
  const match = byId ? sql`id = ${idOrSlug}` : sql`slug = ${idOrSlug} and password_hash is null`;
  return sql<PastesTable>`update pastes set views = views + 1
    where ${match}
      and revoked_at is null
      and (expires_at is null or expires_at > ${now})
      and (max_views = 0 or views < max_views)
    returning *`;
}

export class PastesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** On SQLite, view counts are group-committed through this (db/write-batch.ts). */
    private readonly writeBatch?: SqliteWriteBatch,
  ) {}

  private readonly countViewSql: { id?: string; slug?: string } = {};

  findBySlug(slug: string): Promise<PastesTable | undefined> {
    return this.db.selectFrom('pastes').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  findByIdOrSlug(idOrSlug: string): Promise<PastesTable | undefined> {
    return this.db
      .selectFrom('pastes')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', idOrSlug), eb('slug', '=', idOrSlug)]))
      .orderBy(sql`case when id = ${idOrSlug} then 0 else 1 end`)
      .executeTakeFirst();
  }

  async slugExists(slug: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('pastes').select('id').where('slug', '=', slug).executeTakeFirst()) !==
      undefined
    );
  }

  /** A paste with its named files (none for a paste of one unnamed text), in one transaction. */
  async insert(row: PastesTable, files: PasteFileInput[] = []): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('pastes').values(row).execute();
      await insertFiles(trx, row.id, files);
    });
  }

  /** Changes a paste; with `files`, they replace every file it had. */
  async update(id: string, changes: Updateable<PastesTable>, files?: PasteFileInput[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('pastes').set(changes).where('id', '=', id).execute();
      if (files === undefined) return;
      await trx.deleteFrom('paste_files').where('paste_id', '=', id).execute();
      await insertFiles(trx, id, files);
    });
  }

  /** The named files of a paste, in order. */
  files(pasteId: string): Promise<PasteFilesTable[]> {
    return this.db
      .selectFrom('paste_files')
      .selectAll()
      .where('paste_id', '=', pasteId)
      .orderBy('position')
      .execute();
  }

  revoke(id: string, now: string): Promise<void> {
    return revokeShare(this.db, 'pastes', id, now);
  }

  /**
   * The public page (docs/api.md, "Public pastes"): public pastes anyone may open now — unprotected,
   * not revoked, expired or used up — newest first, with their size and languages, never their text.
   */
  async listPublic(options: {
    offset: number;
    limit: number;
    now: string;
  }): Promise<{ rows: PublicPasteRow[]; total: number }> {
    const base = this.db
      .selectFrom('pastes')
      .where('is_public', '=', 1)
      .where('password_hash', 'is', null)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', options.now)]))
      .where((eb) => eb.or([eb('max_views', '=', 0), eb('views', '<', eb.ref('max_views'))]));
    const totalRow = await base
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .select(['id', 'slug', 'title', 'format', 'file_count', 'created_at'])
      .select(
        sql<number | string>`case when file_count > 0
          then (select coalesce(sum(octet_length(f.content)), 0) from paste_files f where f.paste_id = pastes.id)
          else octet_length(content) end`.as('size'),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const multi = rows.filter((r) => r.file_count > 0).map((r) => r.id);
    const languages =
      multi.length === 0
        ? []
        : await this.db
            .selectFrom('paste_files')
            .select(['paste_id', 'language'])
            .where('paste_id', 'in', multi)
            .orderBy('paste_id')
            .orderBy('position')
            .execute();
    return {
      rows: rows.map((r) => ({
        ...r,
        size: Number(r.size),
        languages:
          r.file_count > 0
            ? [...new Set(languages.filter((l) => l.paste_id === r.id).map((l) => l.language))]
            : [r.format],
      })),
      total: Number(totalRow.n),
    };
  }

  /**
   * Counts one view in a single statement and returns the row as it is after the count — or
   * nothing when the paste is gone, expired or used up (or, with `unprotectedOnly`, protected).
   * Under any concurrency exactly `max_views` callers get a row.
   */
  countView(
    target: { id: string } | { slug: string; unprotectedOnly: true },
    now: string,
  ): Promise<PastesTable | undefined> {
    const byId = 'id' in target;
    const idOrSlug = byId ? target.id : target.slug;
    if (this.writeBatch) {
      // The SQL text is the same for every call of a kind: compile it once (the parameters keep
      // their order: the id or slug, then the time).
      const source = (this.countViewSql[byId ? 'id' : 'slug'] ??= countViewStatement(
        idOrSlug,
        byId,
        now,
      ).compile(this.db).sql);
      return this.writeBatch.get<PastesTable>(source, [idOrSlug, now]);
    }
    return countViewStatement(idOrSlug, byId, now)
      .execute(this.db)
      .then((result) => result.rows[0]);
  }

  /** Erases the text of a used-up paste; the row stays so readers learn it was used up. */
  async eraseContent(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('pastes').set({ content: '' }).where('id', '=', id).execute();
      await trx.deleteFrom('paste_files').where('paste_id', '=', id).execute();
    });
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('pastes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteMany(ids: string[], whose?: Whose): Promise<number> {
    if (ids.length === 0) return 0;
    let query = this.db.deleteFrom('pastes').where('id', 'in', ids);
    if (whose !== undefined) query = query.where(whose.column, '=', whose.value);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Removes pastes past their expiry or their last allowed view. */
  async deleteExpiredAndUsedUp(now: string): Promise<number> {
    const result = await this.db
      .deleteFrom('pastes')
      .where((eb) =>
        eb.or([
          eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', now)]),
          eb.and([eb('max_views', '>', 0), eb('views', '>=', eb.ref('max_views'))]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async list(options: {
    offset: number;
    limit: number;
    search?: string;
    whose?: Whose;
  }): Promise<{ rows: PasteListRow[]; total: number }> {
    let base = this.db.selectFrom('pastes');
    if (options.whose) base = base.where(`pastes.${options.whose.column}`, '=', options.whose.value);
    if (options.search) {
      const pattern = likePattern(options.search);
      base = base.where(
        (eb) =>
          sql<boolean>`(lower(${eb.ref('pastes.slug')}) like ${pattern} escape '\\' or lower(coalesce(${eb.ref('pastes.title')}, '')) like ${pattern} escape '\\' or lower(coalesce(${eb.ref('pastes.remark')}, '')) like ${pattern} escape '\\' or lower(${eb.ref('pastes.content')}) like ${pattern} escape '\\')`,
      );
    }
    const totalRow = await base
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .leftJoin('api_keys', (join) => join.on(createdByKey('pastes')))
      .selectAll('pastes')
      .select('api_keys.name as key_name')
      .orderBy('pastes.created_at', 'desc')
      .orderBy('pastes.id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return { rows, total: Number(totalRow.n) };
  }

  keyName(createdBy: string | null): Promise<string | null> {
    return creatorKeyName(this.db, createdBy);
  }
}
