/**
 * Who a WebDAV request comes from, read from its own Authorization header every time (nothing is
 * remembered by address or User-Agent): Basic with the admin's username and password, Basic with an
 * API key as both username and password, `Bearer <session token>` or `ApiKey <key>`.
 *
 * A sync client sends Basic credentials on every request, and argon2 is slow on purpose; so a
 * verified admin header is remembered for a minute, keyed by its SHA-256, and only while the admin's
 * password is unchanged (checked on each use). Wrong Basic passwords count in the login form's limits.
 */
import type { Principal } from '@cubby/shared';
import type { Clock } from '../lib/clock.ts';
import { sha256Hex } from '../lib/crypto.ts';
import type { ApiKeysService } from '../modules/api-keys/api-keys.service.ts';
import { adminPrincipal, type AuthService } from '../modules/auth/auth.service.ts';

const REMEMBER_MS = 60_000;
const REMEMBER_MAX = 1000;

export class DavAuthenticator {
  private readonly verified = new Map<string, { adminId: string; passwordHash: string; until: number }>();

  constructor(private readonly deps: { auth: AuthService; apiKeys: ApiKeysService; clock: Clock }) {}

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
    const admin = await this.deps.auth.verifyCredentials(username, password, clientIp);
    if (this.verified.size >= REMEMBER_MAX) {
      for (const [key, entry] of this.verified) if (entry.until <= now) this.verified.delete(key);
      if (this.verified.size >= REMEMBER_MAX) this.verified.clear();
    }
    this.verified.set(id, { adminId: admin.id, passwordHash: admin.password_hash, until: now + REMEMBER_MS });
    return adminPrincipal(admin);
  }
}
