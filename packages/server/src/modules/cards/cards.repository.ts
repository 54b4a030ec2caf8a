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
  size: number;
}

export interface PasteCardRow extends CardRow {
  remark: string | null;
  format: string;
}

export interface FileCardRow extends CardRow {
  id: string;
  filename: string;
  mimetype: string;
  storage_config_id: string;
  storage_path: string;
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
      .select(['slug', 'remark', 'format', 'password_hash', 'expires_at', 'max_views', 'views'])
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
        'storage_config_id',
        'storage_path',
      ])
      .where('slug', '=', slug)
      .where('status', '=', 'ready')
      .executeTakeFirst();
    return row ? { ...row, size: Number(row.size) } : undefined;
  }
}
