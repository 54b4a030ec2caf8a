/**
 * Who a WebDAV request comes from, read from its own Authorization header every time (nothing is
 * remembered by address or User-Agent): Basic with the admin's username and password, Basic with an
 * API key as both username and password, `Bearer <session token>` or `ApiKey <key>`.
 *
 * A sync client sends Basic credentials on every request, and argon2 is slow on purpose; so a
 * verified admin header is remembered for a minute, keyed by its SHA-256, and only while the admin's
 * password is unchanged (checked on each use). Wrong Basic passwords count in the login form's limits
 * and leave a failed `auth.login` in the audit log (`{door: 'webdav'}`), one per verification.
 *
 * One header is verified once at a time: requests that arrive while it is being verified (a client
 * with 16 connections whose memo just ran out) wait for that one answer instead of each taking a
 * slot of the guessing limit — a right password is never refused for being sent in parallel, and a
 * wrong one counts as one guess however many requests carried it.
 */
import type { Principal } from '@cubby/shared';
import type { AdminsTable } from '../db/schema.ts';
import { AppError } from '../errors/app-error.ts';
import type { AuditRecorder } from '../http/context.ts';
import type { Clock } from '../lib/clock.ts';
import { sha256Hex } from '../lib/crypto.ts';
import type { ApiKeysService } from '../modules/api-keys/api-keys.service.ts';
import { adminPrincipal, type AuthService } from '../modules/auth/auth.service.ts';

const REMEMBER_MS = 60_000;
const REMEMBER_MAX = 1000;

export class DavAuthenticator {
  private readonly verified = new Map<string, { adminId: string; passwordHash: string; until: number }>();
  /** Verifications in flight, by the header's SHA-256. */
  private readonly verifying = new Map<string, Promise<AdminsTable>>();

  constructor(
    private readonly deps: { auth: AuthService; apiKeys: ApiKeysService; clock: Clock; audit: AuditRecorder },
  ) {}

  /**
   * The principal behind the header, or null without credentials or with wrong ones (the caller
   * answers 401). A wrong Basic password throws the login's 401/429 errors.
   */
  async principal(header: string | undefined, clientIp: string): Promise<Principal | null> {
    if (!header) return null;
    const match = /^(Basic|Bearer|ApiKey)\s+(\S+)\s*$/i.exec(header);
    if (!match) return null;
    const scheme = match[1]!.toLowerCase();
    const credential = match[2]!;
    if (scheme === 'bearer') return this.deps.auth.resolveSession(credential);
    if (scheme === 'apikey') return this.deps.apiKeys.resolveKey(credential);

    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (username !== '' && username === password) {
      const key = await this.deps.apiKeys.resolveKey(username);
      if (key) return key;
    }
    const now = this.deps.clock.now().getTime();
    const id = sha256Hex(header);
    const known = this.verified.get(id);
    if (known && known.until > now) {
      const admin = await this.deps.auth.adminIfUnchanged(known.adminId, known.passwordHash);
      if (admin) return admin;
    }
    this.verified.delete(id);
    let verification = this.verifying.get(id);
    if (!verification) {
      verification = this.verify(id, username, password, clientIp);
      this.verifying.set(id, verification);
      void verification.then(
        () => this.verifying.delete(id),
        () => this.verifying.delete(id),
      );
    }
    return adminPrincipal(await verification);
  }

  private async verify(id: string, username: string, password: string, clientIp: string) {
    let admin: AdminsTable;
    try {
      admin = await this.deps.auth.verifyCredentials(username, password, clientIp);
    } catch (error) {
      await this.deps.audit.record({
        principal: null,
        triedName: username,
        ip: clientIp,
        action: 'auth.login',
        outcome: 'failure',
        status: error instanceof AppError ? error.status : 500,
        details: { door: 'webdav' },
      });
      throw error;
    }
    const now = this.deps.clock.now().getTime();
    if (this.verified.size >= REMEMBER_MAX) {
      for (const [key, entry] of this.verified) if (entry.until <= now) this.verified.delete(key);
      if (this.verified.size >= REMEMBER_MAX) this.verified.clear();
    }
    this.verified.set(id, { adminId: admin.id, passwordHash: admin.password_hash, until: now + REMEMBER_MS });
    return admin;
  }
}
