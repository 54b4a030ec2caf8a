/** SQL for webhooks, their delivery log, the once-only share notices and who gets email. */
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.ts';

/** A share as a notice names it: the columns pastes and files both have, named alike. */
export interface NoticeShare {
  kind: 'paste' | 'file';
  id: string;
  slug: string;
  name: string | null;
  owner_id: string | null;
  expires_at: string | null;
}

/** Where each kind of share keeps what a notice needs (an unfinished file upload has none). */
const NOTICE_SOURCES = [
  { kind: 'paste', table: 'pastes', name: 'remark' },
  { kind: 'file', table: 'files', name: 'filename' },
] as const;

export class NotificationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // ---- webhooks ---------------------------------------------------------------------------------

  listWebhooks(): Promise<WebhooksTable[]> {
    return this.db.selectFrom('webhooks').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  findWebhook(id: string): Promise<WebhooksTable | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertWebhook(row: WebhooksTable): Promise<void> {
    await this.db.insertInto('webhooks').values(row).execute();
  }

  async updateWebhook(id: string, changes: Partial<WebhooksTable>): Promise<void> {
    await this.db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
  }

  async deleteWebhook(id: string): Promise<boolean> {
    // The log goes with it (also by the foreign key, where the database enforces it).
    await this.db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
    const result = await this.db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  enabledWebhooks(): Promise<WebhooksTable[]> {
    return this.db.selectFrom('webhooks').selectAll().where('enabled', '=', 1).execute();
  }

  // ---- deliveries -------------------------------------------------------------------------------

  async insertDeliveries(rows: WebhookDeliveriesTable[]): Promise<void> {
    if (rows.length) await this.db.insertInto('webhook_deliveries').values(rows).execute();
  }

  findDelivery(id: string): Promise<WebhookDeliveriesTable | undefined> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Ids of pending deliveries whose attempt is due, oldest first. */
  async dueDeliveries(now: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Takes a due delivery for one attempt: counts the attempt and holds it until `leaseUntil`, unless
   * another attempt took it first (one conditional UPDATE). False when it was not ours to take.
   */
  async claim(
    delivery: Selectable<WebhookDeliveriesTable>,
    now: string,
    leaseUntil: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ attempts: delivery.attempts + 1, next_attempt_at: leaseUntil, updated_at: now })
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', delivery.attempts)
      .where('next_attempt_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async finishAttempt(id: string, changes: Partial<WebhookDeliveriesTable>): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute();
  }

  deliveriesOf(webhookId: string, limit: number): Promise<WebhookDeliveriesTable[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  // ---- email recipients -------------------------------------------------------------------------

  async emailOf(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    return row?.email ?? null;
  }

  async adminEmails(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('email')
      .where('role', '=', 'admin')
      .where('email', 'is not', null)
      .execute();
    return rows.map((r) => r.email!).filter(Boolean);
  }

  // ---- once-only notices ------------------------------------------------------------------------

  /**
   * Shares whose expiry falls in (`after`, `until`] and that have not had `notice`, at most `limit`
   * of each kind. Their record's columns only: no text, no storage.
   */
  async sharesExpiring(after: string, until: string, notice: string, limit: number): Promise<NoticeShare[]> {
    const found: NoticeShare[] = [];
    for (const source of NOTICE_SOURCES) {
      const { rows } = await sql<NoticeShare>`
        select ${sql.lit(source.kind)} as kind, s.id, s.slug, ${sql.ref(`s.${source.name}`)} as name,
          s.owner_id, s.expires_at
        from ${sql.table(source.table)} as s
        where s.expires_at > ${after} and s.expires_at <= ${until}
          ${source.table === 'files' ? sql`and s.status = 'ready'` : sql``}
          and not exists (
            select 1 from share_notices n
            where n.share_kind = ${source.kind} and n.share_id = s.id and n.notice = ${notice}
          )
        order by s.expires_at
        limit ${limit}`.execute(this.db);
      found.push(...rows);
    }
    return found;
  }

  /** Records that a share had a notice; false when it already had (another instance got there first). */
  async markNoticed(kind: string, id: string, notice: string, now: string): Promise<boolean> {
    const result = await this.db
      .insertInto('share_notices')
      .values({ share_kind: kind, share_id: id, notice, created_at: now })
      .onConflict((oc) => oc.columns(['share_kind', 'share_id', 'notice']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
