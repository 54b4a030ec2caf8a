/**
 * Admin accounts and sessions: first-start bootstrap, login with rate limiting, session tokens stored
 * only as hashes, logout, change of username or password (which revokes every session).
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '@cubby/shared';
import type { FailureRateLimiter } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  dummyPasswordHash,
  hashPassword,
  randomString,
  randomToken,
  sha256Hex,
  verifyPassword,
} from '../../lib/crypto.ts';
import { badRequest, conflict, rateLimited, unauthenticated } from '../../http/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AuthRepository } from './auth.repository.ts';

export const MIN_PASSWORD_LENGTH = 8;

export interface ChangePasswordInput {
  currentPassword?: string;
  newPassword?: string;
  newUsername?: string;
}

export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly clock: Clock,
    private readonly limiter: FailureRateLimiter,
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

  async login(username: unknown, password: unknown, clientIp: string) {
    if (typeof username !== 'string' || typeof password !== 'string' || !username.trim() || !password) {
      throw badRequest('auth.login_fields_required');
    }
    const limitKeys = [`login-user:${username.trim().toLowerCase()}`, `login-ip:${clientIp}`];
    const wait = this.limiter.retryAfter(limitKeys);
    if (wait > 0) throw rateLimited(wait);

    const admin = await this.repo.findAdminByUsername(username.trim());
    const valid = await verifyPassword(admin?.password_hash ?? (await dummyPasswordHash()), password);
    if (!admin || !valid) {
      this.limiter.recordFailure(limitKeys);
      throw unauthenticated('auth.invalid_login');
    }
    this.limiter.reset(limitKeys[0]!);

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
    return admin ? { type: 'admin', id: admin.id, username: admin.username } : null;
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

    const limitKey = [`change-password:${adminId}`];
    const wait = this.limiter.retryAfter(limitKey);
    if (wait > 0) throw rateLimited(wait);
    const admin = await this.repo.findAdminById(adminId);
    if (!admin) throw unauthenticated();
    if (!(await verifyPassword(admin.password_hash, input.currentPassword))) {
      this.limiter.recordFailure(limitKey);
      throw unauthenticated('auth.current_password_wrong');
    }

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
