/** SQL for the audit log: add an entry, read pages of them, and the retention purge (the one delete). */
import type { AuditEntry } from '@cubby/shared';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { AuditLogTable, Database } from '../../db/schema.ts';

export interface AuditFilter {
  action?: string;
  /** An actor's name (any case) or id. */
  actor?: string;
  outcome?: 'success' | 'failure';
  /** ISO times, both ends included. */
  from?: string;
  to?: string;
}

/** Rows the purge deletes per statement: a long log is trimmed in steps, not in one huge delete. */
const PURGE_BATCH = 5000;

type AuditQuery = SelectQueryBuilder<Database, 'audit_log', object>;

export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: AuditLogTable): Promise<void> {
    await this.db.insertInto('audit_log').values(row).execute();
  }

  private filtered(filter: AuditFilter): AuditQuery {
    let query: AuditQuery = this.db.selectFrom('audit_log');
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.outcome) query = query.where('outcome', '=', filter.outcome);
    if (filter.from) query = query.where('at', '>=', filter.from);
    if (filter.to) query = query.where('at', '<=', filter.to);
    const actor = filter.actor?.trim();
    if (actor) {
      query = query.where((eb) =>
        eb.or([eb('actor_id', '=', actor), eb(sql`lower(actor_name)`, '=', actor.toLowerCase())]),
      );
    }
    return query;
  }

  /** A page, newest first, and how many entries match. */
  async page(
    filter: AuditFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: AuditEntry[]; total: number }> {
    const [items, count] = await Promise.all([
      this.filtered(filter)
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
      this.filtered(filter)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  }

  /** The next `limit` entries after `cursor` in newest-first order (the export walks the log so). */
  after(
    filter: AuditFilter,
    cursor: { at: string; id: string } | undefined,
    limit: number,
  ): Promise<AuditEntry[]> {
    let query = this.filtered(filter);
    // One row-value comparison, so the database walks the (at, id) index from the cursor on.
    if (cursor) query = query.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(cursor.at, cursor.id)));
    return query.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Deletes the entries older than `before`; answers how many went. */
  async purgeBefore(before: string): Promise<number> {
    let total = 0;
    for (;;) {
      const { numDeletedRows } = await this.db
        .deleteFrom('audit_log')
        .where('id', 'in', (eb) =>
          eb.selectFrom('audit_log').select('id').where('at', '<', before).limit(PURGE_BATCH),
        )
        .executeTakeFirst();
      total += Number(numDeletedRows);
      if (Number(numDeletedRows) < PURGE_BATCH) return total;
    }
  }
}
