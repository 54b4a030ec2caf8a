/**
 * SQL for bundles (migration 0021): rows and their items, the one-statement visit count, and the
 * owner's list.
 */
import { type Kysely, type Updateable, sql } from 'kysely';
import type {
  BundleItemKind,
  BundleItemsTable,
  BundlesTable,
  Database,
  FilesTable,
  PastesTable,
} from '../../db/schema.ts';
import type { Whose } from '../shares/share-rules.ts';

/** Ids per `in (…)` list, well under either database's limit on bound values. */
const ID_BATCH = 500;

/** A paste without its text (which can be megabytes): its size in UTF-8 bytes instead. */
export type PasteMeta = Omit<PastesTable, 'content'> & { size: number };

export interface BundleListRow extends BundlesTable {
  item_count: number;
}

export class BundlesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findBySlug(slug: string): Promise<BundlesTable | undefined> {
    return this.db.selectFrom('bundles').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  findById(id: string): Promise<BundlesTable | undefined> {
    return this.db.selectFrom('bundles').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async slugExists(slug: string): Promise<boolean> {
    const row = await this.db.selectFrom('bundles').select('id').where('slug', '=', slug).executeTakeFirst();
    return row !== undefined;
  }

  items(bundleId: string): Promise<BundleItemsTable[]> {
    return this.db
      .selectFrom('bundle_items')
      .selectAll()
      .where('bundle_id', '=', bundleId)
      .orderBy('position')
      .execute();
  }

  item(bundleId: string, position: number): Promise<BundleItemsTable | undefined> {
    return this.db
      .selectFrom('bundle_items')
      .selectAll()
      .where('bundle_id', '=', bundleId)
      .where('position', '=', position)
      .executeTakeFirst();
  }

  /** The bundle and its items, in one transaction. */
  async insert(row: BundlesTable, items: BundleItemsTable[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('bundles').values(row).execute();
      for (let i = 0; i < items.length; i += ID_BATCH) {
        await trx
          .insertInto('bundle_items')
          .values(items.slice(i, i + ID_BATCH))
          .execute();
      }
    });
  }

  /** Changes the bundle, and replaces its items when `items` is given, in one transaction. */
  async update(id: string, changes: Updateable<BundlesTable>, items?: BundleItemsTable[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('bundles').set(changes).where('id', '=', id).execute();
      if (!items) return;
      await trx.deleteFrom('bundle_items').where('bundle_id', '=', id).execute();
      for (let i = 0; i < items.length; i += ID_BATCH) {
        await trx
          .insertInto('bundle_items')
          .values(items.slice(i, i + ID_BATCH))
          .execute();
      }
    });
  }

  /**
   * Appends an item after the last one, or finds it there already (the same kind and ref): in one
   * transaction that first touches the bundle's row, so the appends to one bundle run one after
   * another (PostgreSQL locks the row until the end; SQLite runs one writer at a time) and `max`
   * holds exactly however many race. Only while the bundle is neither revoked nor expired: 'closed'
   * otherwise; 'full' at `max` items.
   */
  async append(
    item: Omit<BundleItemsTable, 'position'>,
    max: number,
    now: string,
  ): Promise<'added' | 'closed' | 'full'> {
    return this.db.transaction().execute(async (trx) => {
      const touched = await trx
        .updateTable('bundles')
        .set({ updated_at: now })
        .where('id', '=', item.bundle_id)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirst();
      if (Number(touched.numUpdatedRows) !== 1) return 'closed';
      const items = trx.selectFrom('bundle_items').where('bundle_id', '=', item.bundle_id);
      const there = await items
        .select('position')
        .where('kind', '=', item.kind)
        .where('ref', '=', item.ref)
        .executeTakeFirst();
      if (there) return 'added';
      const { n, top } = await items
        .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('position').as('top')])
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return 'full';
      await trx
        .insertInto('bundle_items')
        .values({ ...item, position: top === null ? 0 : Number(top) + 1 })
        .execute();
      return 'added';
    });
  }

  /** Takes an item out by what it names (an upload that failed after it was appended). */
  async removeItem(bundleId: string, kind: BundleItemKind, ref: string): Promise<void> {
    await this.db
      .deleteFrom('bundle_items')
      .where('bundle_id', '=', bundleId)
      .where('kind', '=', kind)
      .where('ref', '=', ref)
      .execute();
  }

  /**
   * Counts one visit, in one conditional UPDATE: only while the bundle is not revoked, not expired
   * and under its view limit — so under any concurrency exactly `max_views` visits are counted.
   * False when nothing was counted.
   */
  async countVisit(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('bundles')
      .set({ views: sql`views + 1` })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where((eb) => eb.or([eb('max_views', '=', 0), eb('views', '<', eb.ref('max_views'))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Bundles newest first, with their item counts. */
  async list(options: {
    offset: number;
    limit: number;
    whose?: Whose;
  }): Promise<{ rows: BundleListRow[]; total: number }> {
    let base = this.db.selectFrom('bundles');
    if (options.whose) base = base.where(options.whose.column, '=', options.whose.value);
    const totalRow = await base
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .selectAll('bundles')
      .select((eb) =>
        eb
          .selectFrom('bundle_items')
          .select((sub) => sub.fn.countAll<number | string>().as('c'))
          .whereRef('bundle_items.bundle_id', '=', 'bundles.id')
          .as('item_count'),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return {
      rows: rows.map((r) => ({ ...r, item_count: Number(r.item_count ?? 0) })),
      total: Number(totalRow.n),
    };
  }

  findFilesBySlug(slugs: string[]): Promise<FilesTable[]> {
    return this.inBatches(slugs, (batch) =>
      this.db.selectFrom('files').selectAll().where('slug', 'in', batch).execute(),
    );
  }

  findPastesBySlug(slugs: string[]): Promise<PasteMeta[]> {
    return this.inBatches(slugs, (batch) => this.pasteMeta().where('slug', 'in', batch).execute());
  }

  findFiles(ids: string[]): Promise<FilesTable[]> {
    return this.inBatches(ids, (batch) =>
      this.db.selectFrom('files').selectAll().where('id', 'in', batch).execute(),
    );
  }

  findPastes(ids: string[]): Promise<PasteMeta[]> {
    return this.inBatches(ids, (batch) => this.pasteMeta().where('id', 'in', batch).execute());
  }

  /** A paste's text, read when it is sent. */
  async pasteContent(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('pastes').select('content').where('id', '=', id).executeTakeFirst();
    return row?.content;
  }

  private pasteMeta() {
    return (
      this.db
        .selectFrom('pastes')
        .select([
          'id',
          'slug',
          'format',
          'remark',
          'password_hash',
          'expires_at',
          'max_views',
          'views',
          'created_by',
          'owner_id',
          'created_at',
          'updated_at',
          'title',
          'is_public',
          'revoked_at',
          'file_count',
        ])
        // Both databases count octets with octet_length (SQLite since 3.43).
        .select(sql<number>`octet_length(content)`.as('size'))
    );
  }

  private async inBatches<T>(values: string[], run: (batch: string[]) => Promise<T[]>): Promise<T[]> {
    const unique = [...new Set(values)];
    const out: T[] = [];
    for (let i = 0; i < unique.length; i += ID_BATCH) out.push(...(await run(unique.slice(i, i + ID_BATCH))));
    return out;
  }
}
