/**
 * SQL for file shares: rows, the one-statement view count, the grants that let a counted view keep
 * delivering (file_view_tokens, migration 0004), and the management list.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { creatorId, type FileSource, mimeFromFilename, type Principal, userIdOf } from '@cubby/shared';
import { type Kysely, type Updateable, sql } from 'kysely';
import { movePlaceRows, pathBelow } from '../../db/path-below.ts';
import type { Database, FilesTable } from '../../db/schema.ts';
import type { Place } from '../../vfs/changes.ts';
import { createdByKey, likePattern, revokeShare, type Whose } from '../shares/share-rules.ts';

/**
 * A new file share's row: an unprotected share served through this server (no password, expiry or
 * view limit) of `fields.filename` stored at `fields.storage_path`, typed by its name.
 */
export function newFileRow(
  principal: Principal,
  fields: Pick<
    FilesTable,
    'slug' | 'filename' | 'storage_config_id' | 'storage_path' | 'size' | 'etag' | 'status'
  >,
  now: Date,
): FilesTable {
  return {
    id: randomUUID(),
    ...fields,
    mimetype: mimeFromFilename(fields.filename),
    remark: null,
    password_hash: null,
    expires_at: null,
    max_views: 0,
    views: 0,
    use_proxy: 1,
    keep_object: 0,
    source: 'share',
    created_by: creatorId(principal),
    owner_id: userIdOf(principal),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    revoked_at: null,
  };
}

export interface FileListRow extends FilesTable {
  s3_config_name: string | null;
  s3_provider_type: string | null;
  key_name: string | null;
}

export interface Grant {
  nonce: string;
  expiresAt: string;
}

export type CountOutcome =
  /** This request counted a view; the row as it is after the count. */
  | { outcome: 'counted'; row: FilesTable }
  /** The token was counted before: deliver without counting again. */
  | { outcome: 'already_counted' }
  /** Nothing was counted: the share is gone, not ready, expired or used up. */
  | { outcome: 'refused' };

class Refused extends Error {}

export class FilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: string): Promise<FilesTable | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findBySlug(slug: string): Promise<FilesTable | undefined> {
    return this.db.selectFrom('files').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  async slugExists(slug: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('files').select('id').where('slug', '=', slug).executeTakeFirst()) !==
      undefined
    );
  }

  async insert(row: FilesTable): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  /** Deletes the shares of the object at `storagePath` and of every object below it (a folder removed through fs). */
  async deleteUnder(configId: string, storagePath: string): Promise<number> {
    const result = await this.db
      .deleteFrom('files')
      .where('storage_config_id', '=', configId)
      .where((eb) => eb.or([eb('storage_path', '=', storagePath), underPrefix(storagePath)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** A file written again in place: its shares now describe the new bytes. Returns how many. */
  async refreshStored(
    configId: string,
    storagePath: string,
    changes: { size: number; etag: string | null; updated_at: string },
  ): Promise<number> {
    const result = await this.db
      .updateTable('files')
      .set(changes)
      .where('storage_config_id', '=', configId)
      .where('storage_path', '=', storagePath)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Points the shares of `from` (a file, or every object below a folder) at `to` after a move,
   * within one storage or into another.
   */
  async moveUnder(from: Place, to: Place): Promise<void> {
    await movePlaceRows(this.db, 'files', from, to);
  }

  /** Whether any share (pending uploads aside) points at the object at `storagePath`. */
  async hasShares(configId: string, storagePath: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('files')
      .select('id')
      .where('storage_config_id', '=', configId)
      .where('storage_path', '=', storagePath)
      .where('status', '!=', 'pending')
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(id: string, changes: Updateable<FilesTable>): Promise<void> {
    await this.db.updateTable('files').set(changes).where('id', '=', id).execute();
  }

  revoke(id: string, now: string): Promise<void> {
    return revokeShare(this.db, 'files', id, now);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('files').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Counts one view of a ready, live share that has views left — in one statement, so that under any
   * concurrency exactly `max_views` requests succeed.
   *
   * With `token`, the token's nonce is recorded in the same transaction: a token already recorded
   * counts nothing (`already_counted`), and a refused count records nothing. `grant` records a
   * further delivery grant (a direct download's presigned URL) with a counted or already counted view.
   */
  async countView(
    id: string,
    now: string,
    options: { token?: Grant; grant?: Grant } = {},
  ): Promise<CountOutcome> {
    if (!options.token && !options.grant) {
      const row = await this.countStatement(this.db, id, now);
      return row ? { outcome: 'counted', row } : { outcome: 'refused' };
    }
    try {
      return await this.db.transaction().execute(async (trx) => {
        let result: CountOutcome | undefined;
        if (options.token) {
          const inserted = await trx
            .insertInto('file_view_tokens')
            .values({
              nonce: options.token.nonce,
              file_id: id,
              expires_at: options.token.expiresAt,
              created_at: now,
            })
            .onConflict((oc) => oc.column('nonce').doNothing())
            .returning('nonce')
            .executeTakeFirst();
          if (!inserted) {
            const known = await trx
              .selectFrom('file_view_tokens')
              .select('file_id')
              .where('nonce', '=', options.token.nonce)
              .executeTakeFirst();
            if (known?.file_id !== id) throw new Refused();
            result = { outcome: 'already_counted' };
          }
        }
        if (!result) {
          const row = await this.countStatement(trx, id, now);
          if (!row) throw new Refused();
          result = { outcome: 'counted', row };
        }
        if (options.grant) {
          await trx
            .insertInto('file_view_tokens')
            .values({
              nonce: options.grant.nonce,
              file_id: id,
              expires_at: options.grant.expiresAt,
              created_at: now,
            })
            .execute();
        }
        return result;
      });
    } catch (error) {
      if (error instanceof Refused) return { outcome: 'refused' };
      throw error;
    }
  }

  private countStatement(db: Kysely<Database>, id: string, now: string): Promise<FilesTable | undefined> {
    return sql<FilesTable>`update files set views = views + 1
      where id = ${id}
        and status = 'ready'
        and revoked_at is null
        and (max_views = 0 or views < max_views)
        and (expires_at is null or expires_at > ${now})
      returning *`
      .execute(db)
      .then((result) => result.rows[0]);
  }

  /** Whether a token with this nonce was counted for the file and is still live. */
  async hasGrant(id: string, nonce: string, now: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('file_view_tokens')
      .select('nonce')
      .where('nonce', '=', nonce)
      .where('file_id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Whether any counted view of the file may still be delivering (a live token or direct-download grant). */
  async hasLiveGrants(id: string, now: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('file_view_tokens')
      .select('nonce')
      .where('file_id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteExpiredGrants(now: string): Promise<number> {
    const result = await this.db
      .deleteFrom('file_view_tokens')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Ready shares past their expiry, and used-up ones no live grant still delivers — the ones the
   * purge job deletes, a page at a time.
   */
  findRetired(now: string, limit: number): Promise<FilesTable[]> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('status', '=', 'ready')
      .where((eb) =>
        eb.or([
          eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', now)]),
          eb.and([
            eb('max_views', '>', 0),
            eb('views', '>=', eb.ref('max_views')),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('file_view_tokens')
                  .select('nonce')
                  .whereRef('file_view_tokens.file_id', '=', 'files.id')
                  .where('file_view_tokens.expires_at', '>', now),
              ),
            ),
          ]),
        ]),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** The rows among `ids` (any status), limited to someone's own when `whose` is given. */
  findMany(ids: string[], whose?: Whose): Promise<FilesTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    let query = this.db.selectFrom('files').selectAll().where('id', 'in', ids);
    if (whose !== undefined) query = query.where(whose.column, '=', whose.value);
    return query.execute();
  }

  private listBase() {
    return this.db
      .selectFrom('files')
      .leftJoin('storage_configs', 'storage_configs.id', 'files.storage_config_id')
      .leftJoin('api_keys', (join) => join.on(createdByKey('files')));
  }

  private withListColumns<Q extends ReturnType<FilesRepository['listBase']>>(query: Q) {
    return query
      .selectAll('files')
      .select([
        'storage_configs.name as s3_config_name',
        'storage_configs.provider_type as s3_provider_type',
        'api_keys.name as key_name',
      ]);
  }

  /** Ready shares (of one source, when given), newest first, with their storage config and creating key. */
  async list(options: {
    offset: number;
    limit: number;
    search?: string;
    whose?: Whose;
    storageConfigId?: string;
    source?: FileSource;
  }): Promise<{ rows: FileListRow[]; total: number }> {
    let base = this.listBase().where('files.status', '=', 'ready');
    if (options.whose) base = base.where(`files.${options.whose.column}`, '=', options.whose.value);
    if (options.source !== undefined) base = base.where('files.source', '=', options.source);
    if (options.storageConfigId) base = base.where('files.storage_config_id', '=', options.storageConfigId);
    if (options.search) {
      const pattern = likePattern(options.search);
      base = base.where(
        (eb) =>
          sql<boolean>`(lower(${eb.ref('files.filename')}) like ${pattern} escape '\\' or lower(${eb.ref('files.slug')}) like ${pattern} escape '\\' or lower(coalesce(${eb.ref('files.remark')}, '')) like ${pattern} escape '\\')`,
      );
    }
    const totalRow = await base
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.withListColumns(base)
      .orderBy('files.created_at', 'desc')
      .orderBy('files.id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return { rows, total: Number(totalRow.n) };
  }

  /** One share (any status) with its storage config and creating key. */
  findListRow(id: string): Promise<FileListRow | undefined> {
    return this.withListColumns(this.listBase().where('files.id', '=', id)).executeTakeFirst();
  }
}

/** A fresh grant nonce (direct downloads; tokens bring their own). */
export const grantNonce = (): string => `g-${randomBytes(16).toString('base64url')}`;

/**
 * `storage_path` lies below the folder `dir` (compared by characters, so `%` and `_` in names are
 * plain text, unlike in LIKE); SQLite and PostgreSQL both count `substr` in characters.
 */
const underPrefix = (dir: string) => pathBelow('storage_path', dir);
