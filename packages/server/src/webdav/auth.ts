/**
 * Who a WebDAV request comes from, read from its own Authorization header every time (nothing is
 * remembered by address or User-Agent): Basic with a person's username and an app password of
 * theirs (docs/accounts.md) or their account password, Basic with an API key as both username and
 * password, `Bearer <session token>` or `ApiKey <key>`.
 *
 * A sync client sends Basic credentials on every request, and argon2 is slow on purpose; so a
 * verified account-password header is remembered for a minute, keyed by its SHA-256, and only while
 * the person is active and their password unchanged (checked on each use). App passwords are keyed
 * hashes, looked up at once. Wrong Basic passwords count in the login form's limits and leave a
 * failed `auth.login` in the audit log (`{door: 'webdav'}`), one per verification.
 *
 * One header is verified once at a time: requests that arrive while it is being verified (a client
 * with 16 connections whose memo just ran out) wait for that one answer instead of each taking a
 * slot of the guessing limit — a right password is never refused for being sent in parallel, and a
 * wrong one counts as one guess however many requests carried it.
 */
import type { Principal } from '@cubby/shared';
import type { UsersTable } from '../db/schema.ts';
import { AppError, forbidden, unauthenticated } from '../errors/app-error.ts';
import type { AuditRecorder } from '../http/context.ts';
import type { Clock } from '../lib/clock.ts';
import { sha256Hex } from '../lib/crypto.ts';
import type { ApiKeysService } from '../modules/api-keys/api-keys.service.ts';
import type { AppPasswordsService } from '../modules/app-passwords/app-passwords.service.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import type { UsersService } from '../modules/users/users.service.ts';
import type { TwoFactorService } from '../modules/two-factor/two-factor.service.ts';

const REMEMBER_MS = 60_000;
const REMEMBER_MAX = 1000;

export class DavAuthenticator {
  private readonly verified = new Map<string, { userId: string; passwordHash: string; until: number }>();
  /** Verifications in flight, by the header's SHA-256. */
  private readonly verifying = new Map<string, Promise<UsersTable>>();

  constructor(
    private readonly deps: {
      auth: AuthService;
      twoFactor: Pick<TwoFactorService, 'isOn'>;
      users: UsersService;
      apiKeys: ApiKeysService;
      appPasswords: AppPasswordsService;
      clock: Clock;
      audit: AuditRecorder;
    },
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
    if (scheme === 'bearer')
      return this.deps.auth.resolveSession(credential, { ip: clientIp, userAgent: null });
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
    const app = await this.deps.appPasswords.resolve(username, password);
    if (app) return app;
    const now = this.deps.clock.now().getTime();
    const id = sha256Hex(header);
    const known = this.verified.get(id);
    if (known && known.until > now) {
      const person = await this.deps.auth.principalIfUnchanged(known.userId, known.passwordHash);
      if (person) return person;
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
    return this.deps.users.principalOf(await verification);
  }

  private async verify(id: string, username: string, password: string, clientIp: string) {
    let user: UsersTable;
    try {
      user = await this.deps.auth.verifyCredentials(username, password, clientIp);
      // A password alone is one factor: a person with two-factor sign-in (TOTP or a passkey) uses an
      // app password here.
      if (await this.deps.twoFactor.isOn(user)) throw unauthenticated('auth.app_password_needed');
      // Required and not set up yet: nothing but setting it up (in the browser).
      if (await this.deps.auth.mustEnrol(user)) throw forbidden('auth.two_factor_setup_required');
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
    this.verified.set(id, { userId: user.id, passwordHash: user.password_hash, until: now + REMEMBER_MS });
    await this.deps.users.ensureHome(user);
    return user;
  }
}
