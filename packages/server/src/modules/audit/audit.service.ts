/**
 * The audit log (docs/security.md "Audit log"): every security-relevant request leaves one entry —
 * who, when, from which address, what, on what, and how it ended. The doors report through
 * `record` (routes through http/route-docs.ts, WebDAV sign-ins through webdav/auth.ts); entries
 * are never changed, and only the retention purge deletes them.
 */
import { randomBytes } from 'node:crypto';
import { type AuditEntry, auditFilterSchema, type Principal } from '@cubby/shared';
import { z } from 'zod';
import { forbidden } from '../../errors/app-error.ts';
import type { Logger } from 'pino';
import type { AuditEvent, AuditRecorder } from '../../http/context.ts';
import type { AuditLogTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { openLink, signLink, stampDigest, stampMatches } from '../../lib/signed-link.ts';
import type { AuditFilter, AuditRepository } from './audit.repository.ts';

const NAME_MAX = 200;
const TARGET_MAX = 1000;
const DETAILS_MAX = 1000;
const DAY_MS = 24 * 3600_000;
/** How long an export link works; a download started in time runs to its end. */
const EXPORT_LINK_SECONDS = 300;
const LINK_PURPOSE = 'audit-export';
const exportLinkPayload = z.object({
  i: z.string(),
  h: z.string(),
  f: auditFilterSchema,
  e: z.number(),
});
/** Rows the CSV export reads per query: the log is streamed, never held whole. */
const EXPORT_PAGE = 500;
const CSV_COLUMNS = [
  'at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'ip',
  'action',
  'target',
  'outcome',
  'status',
  'details',
] as const satisfies ReadonlyArray<keyof AuditEntry>;

/** Who acted: any principal with an id and a username or name (admins, members, keys). */
export function actorOf(principal: AuditEvent['principal']): {
  kind: string;
  id: string | null;
  name: string | null;
} {
  if (!principal) return { kind: 'guest', id: null, name: null };
  const named = principal as { username?: unknown; name?: unknown };
  const name =
    typeof named.username === 'string' ? named.username : typeof named.name === 'string' ? named.name : null;
  return { kind: principal.type, id: principal.id, name };
}

/**
 * One CSV cell: quoted when it holds a quote, comma or line break; a cell a spreadsheet would read
 * as a formula (= + - @, or a tab or carriage return before one) gets a leading apostrophe.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const clip = (value: string | undefined | null, max: number) =>
  value === undefined || value === null ? null : value.slice(0, max);

export interface AuditDeps {
  repo: AuditRepository;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
  /** The retention setting (0: keep every entry). */
  retentionDays: () => Promise<number>;
  secretKey: string;
  /** The admin with this id and a stamp that changes with their password, or null. */
  admin: (id: string) => Promise<{ principal: Principal; stamp: string } | null>;
}

export class AuditService implements AuditRecorder {
  /** Orders the entries of one instance within a millisecond (ids sort as they were made). */
  private sequence = 0;
  private readonly repo: AuditRepository;
  private readonly clock: Clock;

  constructor(private readonly deps: AuditDeps) {
    this.repo = deps.repo;
    this.clock = deps.clock;
  }

  async record(event: AuditEvent): Promise<void> {
    try {
      await this.repo.insert(this.row(event));
    } catch (error) {
      // The request it describes has happened; a log that cannot be written must not undo it.
      this.deps.logger.warn({ err: error, action: event.action }, 'could not write an audit entry');
    }
  }

  private row(event: AuditEvent): AuditLogTable {
    const now = this.clock.now();
    const actor = actorOf(event.principal);
    let details = event.details ? JSON.stringify(event.details) : null;
    if (details !== null && details.length > DETAILS_MAX) details = JSON.stringify({ truncated: true });
    this.sequence = (this.sequence + 1) % 36 ** 4;
    return {
      id:
        now.getTime().toString(36).padStart(9, '0') +
        this.sequence.toString(36).padStart(4, '0') +
        randomBytes(6).toString('hex'),
      at: now.toISOString(),
      actor_kind: actor.kind,
      actor_id: actor.id,
      actor_name: clip(actor.name ?? event.triedName, NAME_MAX),
      ip: clip(event.ip, NAME_MAX) ?? 'unknown',
      action: event.action,
      target: clip(event.target, TARGET_MAX),
      outcome: event.outcome,
      status: event.status,
      details,
    };
  }

  async list(filter: AuditFilter, page: number, limit: number) {
    const { items, total } = await this.repo.page(filter, (page - 1) * limit, limit);
    return { items, total, page, limit };
  }

  /** The matching entries as CSV, newest first, read from the database a page at a time. */
  exportCsv(filter: AuditFilter): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let cursor: { at: string; id: string } | undefined;
    let started = false;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_COLUMNS.join(',') + '\r\n'));
          return;
        }
        const rows = await this.repo.after(filter, cursor, EXPORT_PAGE);
        if (rows.length > 0) {
          const last = rows[rows.length - 1]!;
          cursor = { at: last.at, id: last.id };
          const lines = rows.map((row) => CSV_COLUMNS.map((column) => csvCell(row[column])).join(','));
          controller.enqueue(encoder.encode(lines.join('\r\n') + '\r\n'));
        }
        if (rows.length < EXPORT_PAGE) controller.close();
      },
    });
  }

  /**
   * A link that downloads the export with these filters without credentials (a browser navigates
   * to it, so the file streams to disk). It speaks for the admin who asked, and dies with their
   * password change or after five minutes.
   */
  async exportLink(adminId: string, filter: AuditFilter): Promise<{ token: string; expiresAt: Date }> {
    const admin = await this.deps.admin(adminId);
    if (!admin) throw forbidden('audit.link_invalid');
    const e = Math.floor(this.clock.now().getTime() / 1000) + EXPORT_LINK_SECONDS;
    const h = stampDigest(this.deps.secretKey, LINK_PURPOSE, admin.stamp);
    return {
      token: signLink(this.deps.secretKey, LINK_PURPOSE, { i: adminId, h, f: filter, e }),
      expiresAt: new Date(e * 1000),
    };
  }

  /** The filters of a valid export link; 403 for a link that is forged, expired or revoked. */
  async openExportLink(token: string | undefined): Promise<AuditFilter> {
    const payload = openLink(this.deps.secretKey, LINK_PURPOSE, token, exportLinkPayload);
    if (!payload || this.clock.now().getTime() >= payload.e * 1000) throw forbidden('audit.link_invalid');
    const admin = await this.deps.admin(payload.i);
    if (!admin || !stampMatches(this.deps.secretKey, LINK_PURPOSE, admin.stamp, payload.h)) {
      throw forbidden('audit.link_invalid');
    }
    return payload.f;
  }

  /** Deletes entries older than the retention setting (none when it is 0); answers how many went. */
  async purge(): Promise<number> {
    const days = await this.deps.retentionDays();
    if (days <= 0) return 0;
    return this.repo.purgeBefore(new Date(this.clock.now().getTime() - days * DAY_MS).toISOString());
  }
}
