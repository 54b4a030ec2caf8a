/**
 * Admin accounts and sessions: first-start bootstrap, login with rate limiting, session tokens stored
 * only as hashes, logout, change of username or password (which revokes every session).
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '@cubby/shared';
import type { AttemptLimiter, LimitKey, LimitRule } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  dummyPasswordHash,
  hashPassword,
  randomString,
  randomToken,
  sha256Hex,
  verifyPassword,
} from '../../lib/crypto.ts';
import { badRequest, conflict, unauthenticated } from '../../errors/app-error.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AdminsTable } from '../../db/schema.ts';
import type { AuthRepository } from './auth.repository.ts';

export const MIN_PASSWORD_LENGTH = 8;

const FIFTEEN_MINUTES = 15 * 60_000;
/**
 * Wrong logins: tight per address and per (username, address); per username only a high bound, so
 * strangers guessing at `admin` do not lock the real admin out of their own address — should they
 * reach it anyway, the log says so.
 */
const LOGIN_LIMITS = {
  perUserAndAddress: { name: 'login per username and address', max: 10, windowMs: FIFTEEN_MINUTES },
  perAddress: { name: 'login per address', max: 20, windowMs: FIFTEEN_MINUTES },
  perUser: { name: 'login per username', max: 100, windowMs: FIFTEEN_MINUTES, warn: true },
} as const satisfies Record<string, LimitRule>;
/** Wrong current passwords on change-password, per admin (who already holds a session). */
const CHANGE_PASSWORD_LIMIT: LimitRule = {
  name: 'change-password per admin',
  max: 10,
  windowMs: FIFTEEN_MINUTES,
};

export interface ChangePasswordInput {
  currentPassword?: string;
  newPassword?: string;
  newUsername?: string;
}

export const adminPrincipal = (admin: Pick<AdminsTable, 'id' | 'username'>): Principal => ({
  type: 'admin',
  id: admin.id,
  username: admin.username,
});

export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly clock: Clock,
    private readonly limiter: AttemptLimiter,
    private readonly sessionTtlMs: number,
  ) {}

  /**
   * Creates the first admin when there is none: from the given credentials, else `admin` with a
   * random password that the caller prints once. Returns what was created, or null.
   */
  async ensureInitialAdmin(
    username: string | undefined,
    password: string | undefined,
  ): Promise<{ username: string; generatedPassword?: string } | null> {
    if ((await this.repo.countAdmins()) > 0) return null;
    const name = username ?? 'admin';
    const generated = password ? undefined : randomString(20);
    const now = this.clock.now().toISOString();
    await this.repo.insertAdmin({
      id: randomUUID(),
      username: name,
      password_hash: await hashPassword(password ?? generated!),
      created_at: now,
      updated_at: now,
    });
    return generated ? { username: name, generatedPassword: generated } : { username: name };
  }

  /** For an owner locked out: sets a new password (given or random) and revokes all sessions. */
  async resetPassword(username: string | undefined, password: string | undefined) {
    const admin = username ? await this.repo.findAdminByUsername(username) : await this.repo.findFirstAdmin();
    if (!admin) return null;
    const newPassword = password ?? randomString(20);
    await this.repo.updateAdmin(
      admin.id,
      { password_hash: await hashPassword(newPassword) },
      this.clock.now().toISOString(),
    );
    await this.repo.deleteSessionsOfAdmin(admin.id);
    return { username: admin.username, password: newPassword, generated: password === undefined };
  }

  /**
   * Checks a username and password under the login limits (the form's and WebDAV's Basic alike):
   * the attempt is reserved before the password is verified and refunded when it was right.
   */
  async verifyCredentials(username: unknown, password: unknown, clientIp: string): Promise<AdminsTable> {
    if (typeof username !== 'string' || typeof password !== 'string' || !username.trim() || !password) {
      throw badRequest('auth.login_fields_required');
    }
    const user = username.trim().toLowerCase();
    const userKey = sha256Hex(user); // a username may be long: keys stay small
    const limits: LimitKey[] = [
      { rule: LOGIN_LIMITS.perUserAndAddress, key: `${userKey} ${clientIp}` },
      { rule: LOGIN_LIMITS.perAddress, key: clientIp },
      { rule: LOGIN_LIMITS.perUser, key: userKey, logFields: { username: user } },
    ];
    const attempt = await this.limiter.reserve(limits);

    const admin = await this.repo.findAdminByUsername(username.trim());
    const valid = await verifyPassword(admin?.password_hash ?? (await dummyPasswordHash()), password);
    if (!admin || !valid) throw unauthenticated('auth.invalid_login');
    await attempt.refund();
    return admin;
  }

  /** The admin with this id as a principal, while their password is still `passwordHash`. */
  async adminIfUnchanged(adminId: string, passwordHash: string): Promise<Principal | null> {
    const admin = await this.repo.findAdminById(adminId);
    if (!admin || admin.password_hash !== passwordHash) return null;
    return adminPrincipal(admin);
  }

  /**
   * The admin with this id and their password hash (what links they make are bound to, so a password
   * change or reset retires them), or null when there is no such admin.
   */
  async adminWithStamp(adminId: string): Promise<{ principal: Principal; stamp: string } | null> {
    const admin = await this.repo.findAdminById(adminId);
    return admin ? { principal: adminPrincipal(admin), stamp: admin.password_hash } : null;
  }

  async login(username: unknown, password: unknown, clientIp: string) {
    const admin = await this.verifyCredentials(username, password, clientIp);
    const token = randomToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.sessionTtlMs).toISOString();
    await this.repo.insertSession({
      id: randomUUID(),
      admin_id: admin.id,
      token_hash: sha256Hex(token),
      created_at: now.toISOString(),
      expires_at: expiresAt,
    });
    return { username: admin.username, token, expiresAt };
  }

  async logout(token: string): Promise<void> {
    await this.repo.deleteSession(sha256Hex(token));
  }

  /** The admin behind a session token, or null when it is unknown, revoked or expired. */
  async resolveSession(token: string): Promise<Principal | null> {
    const admin = await this.repo.findAdminBySession(sha256Hex(token), this.clock.now().toISOString());
    return admin ? adminPrincipal(admin) : null;
  }

  async changePassword(adminId: string, input: ChangePasswordInput): Promise<void> {
    if (typeof input.currentPassword !== 'string' || input.currentPassword === '') {
      throw badRequest('auth.current_password_required');
    }
    const newUsername =
      typeof input.newUsername === 'string' ? input.newUsername.trim() || undefined : undefined;
    const newPassword =
      typeof input.newPassword === 'string' && input.newPassword !== '' ? input.newPassword : undefined;
    if (!newUsername && !newPassword) throw badRequest('auth.nothing_to_change');

    const attempt = await this.limiter.reserve([{ rule: CHANGE_PASSWORD_LIMIT, key: adminId }]);
    const admin = await this.repo.findAdminById(adminId);
    if (!admin) throw unauthenticated();
    if (!(await verifyPassword(admin.password_hash, input.currentPassword))) {
      throw unauthenticated('auth.current_password_wrong');
    }
    await attempt.refund();

    const changes: { username?: string; password_hash?: string } = {};
    if (newPassword) {
      if (newPassword.length < MIN_PASSWORD_LENGTH) throw badRequest('auth.password_too_short');
      if (await verifyPassword(admin.password_hash, newPassword)) throw badRequest('auth.same_password');
      changes.password_hash = await hashPassword(newPassword);
    }
    if (newUsername && newUsername !== admin.username) {
      const other = await this.repo.findAdminByUsername(newUsername);
      if (other && other.id !== admin.id) throw conflict('auth.username_taken');
      changes.username = newUsername;
    }
    try {
      await this.repo.updateAdmin(admin.id, changes, this.clock.now().toISOString());
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('auth.username_taken');
      throw error;
    }
    await this.repo.deleteSessionsOfAdmin(admin.id);
  }

  purgeExpiredSessions(): Promise<number> {
    return this.repo.deleteExpiredSessions(this.clock.now().toISOString());
  }
}
