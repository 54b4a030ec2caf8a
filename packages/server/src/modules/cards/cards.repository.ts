/**
 * What a link card may know of a share, read from its database row alone (no storage call): the
 * columns a card shows and the ones that decide whether it may show them.
 */
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/** The facts every share kind gives a card. */
export interface CardRow {
  slug: string;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  views: number;
  /** Set once its owner revoked it (then it is unavailable, whatever else holds). */
  revoked_at: string | null;
  /** Bytes, for the kinds that have one size. */
  size?: number;
}

export interface PasteCardRow extends CardRow {
  title: string | null;
  remark: string | null;
  format: string;
  size: number;
}

/** A bundle: its title and how many items it lists. */
export interface BundleCardRow extends CardRow {
  title: string | null;
  items: number;
}

/** A folder share: its title, and the folder's own name (what its page shows). */
export interface FolderCardRow extends CardRow {
  title: string | null;
  virtual_path: string;
  folder_gone_at: string | null;
}

export interface FileCardRow extends CardRow {
  id: string;
  filename: string;
  mimetype: string;
  storage_config_id: string;
  storage_path: string;
  size: number;
}

export class CardsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** A paste's card facts; its size in bytes is counted by the database, the text is not read. */
  async paste(slug: string): Promise<PasteCardRow | undefined> {
    const bytes =
      this.dialect === 'postgres'
        ? sql<number>`octet_length(content)`
        : sql<number>`length(cast(content as blob))`;
    const row = await this.db
      .selectFrom('pastes')
      .select([
        'slug',
        'title',
        'remark',
        'format',
        'password_hash',
        'expires_at',
        'max_views',
        'views',
        'revoked_at',
      ])
      .select(bytes.as('size'))
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row ? { ...row, size: Number(row.size) } : undefined;
  }

  /** A ready file share's card facts (an unfinished upload has no card). */
  async file(slug: string): Promise<FileCardRow | undefined> {
    const row = await this.db
      .selectFrom('files')
      .select([
        'id',
        'slug',
        'filename',
        'mimetype',
        'size',
        'password_hash',
        'expires_at',
        'max_views',
        'views',
        'revoked_at',
        'storage_config_id',
        'storage_path',
      ])
      .where('slug', '=', slug)
      .where('status', '=', 'ready')
      .executeTakeFirst();
    return row ? { ...row, size: Number(row.size) } : undefined;
  }

  /** A bundle's card facts and its number of items. */
  async bundle(slug: string): Promise<BundleCardRow | undefined> {
    const row = await this.db
      .selectFrom('bundles')
      .select(['slug', 'title', 'password_hash', 'expires_at', 'max_views', 'views', 'revoked_at'])
      .select((eb) =>
        eb
          .selectFrom('bundle_items')
          .whereRef('bundle_items.bundle_id', '=', 'bundles.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('items'),
      )
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row ? { ...row, items: Number(row.items ?? 0) } : undefined;
  }

  /** A folder share's card facts. */
  folder(slug: string): Promise<FolderCardRow | undefined> {
    return this.db
      .selectFrom('folder_shares')
      .select([
        'slug',
        'title',
        'virtual_path',
        'folder_gone_at',
        'password_hash',
        'expires_at',
        'max_views',
        'views',
        'revoked_at',
      ])
      .where('slug', '=', slug)
      .executeTakeFirst();
  }
}
