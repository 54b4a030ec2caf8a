/** The per-request variables every handler can read. */
import type { AuditAction, Principal } from '@cubby/shared';
import type { Logger } from 'pino';
import type { Lang } from '../errors/messages.ts';

/** One security-relevant action as a door reports it (modules/audit/ stores it). */
export interface AuditEvent {
  principal: Principal | null;
  /** With no principal: the name a sign-in tried (never its password). */
  triedName?: string;
  ip: string;
  /** Dotted, e.g. `auth.login`, `apikey.create`. (one of the list the web app names: packages/shared/src/audit.ts) */
  action: AuditAction;
  /** The id, slug or path acted on. */
  target?: string;
  outcome: 'success' | 'failure';
  status: number;
  /** A few plain values; never a password, token, key or hash. */
  details?: Record<string, string | number | boolean | null>;
}

/** Where the doors report audit events; set by app.ts, so http/ never imports a module. */
export interface AuditRecorder {
  /** Never throws: a failure to record is logged, and the request it describes goes on. */
  record(event: AuditEvent): Promise<void>;
}

/** What a handler adds to its route's audit entry once it knows it (http/route-docs.ts). */
export type AuditNote = Partial<Pick<AuditEvent, 'principal' | 'triedName' | 'target' | 'details'>>;

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    lang: Lang;
    clientIp: string;
    /** Headers every answer of this request carries, lower-case names (http/answer.ts). */
    headers: Record<string, string>;
    /** Who is calling; null when no valid credentials were sent. */
    principal: Principal | null;
    /** True when an Authorization header was sent but named no valid, unexpired credential. */
    credentialsRejected: boolean;
    /** The guest principal while guests may browse (asked only by routes open to guests), else null. */
    guest: (() => Promise<Principal | null>) | undefined;
    audit: AuditRecorder;
    /** Set by a handler through `noteAudit` (http/route-docs.ts). */
    auditNote: AuditNote | undefined;
  };
}
