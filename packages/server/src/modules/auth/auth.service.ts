/**
 * Signing in and sessions (docs/accounts.md): first-start bootstrap of the first admin, login of any
 * active user with rate limiting (the form's and WebDAV's Basic alike), session tokens stored only
 * as hashes with the device and address they were last used from, the list of one's sessions and
 * ending any or all of them, logout, and the change of one's own username or password (which ends
 * every session).
 */
import { randomUUID } from 'node:crypto';
import { MIN_PASSWORD_LENGTH, type Principal, type SessionView, usernameSchema } from '@cubby/shared';
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
import { badRequest, conflict, forbidden, notFound, unauthenticated } from '../../errors/app-error.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { UsersTable } from '../../db/schema.ts';
import type { SessionsRepository } from './sessions.repository.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { SecondFactor, TwoFactorService } from '../two-factor/two-factor.service.ts';
import { homePathOf, newUserRow, userPrincipal, type UsersService } from '../users/users.service.ts';

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
/** Wrong current passwords on change-password, per user (who already holds a session). */
const CHANGE_PASSWORD_LIMIT: LimitRule = {
  name: 'change-password per user',
  max: 10,
  windowMs: FIFTEEN_MINUTES,
};

export interface ChangePasswordInput {
  currentPassword?: string;
  newPassword?: string;
  newUsername?: string;
}

/** Where a request comes from: noted on the session it uses. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

const LAST_USED_RESOLUTION_MS = 60_000;
const USER_AGENT_MAX = 300;

/**
 * For an owner locked out (`npm run admin:reset-password`): sets a new password (given or random) on
 * the named user or the first admin, makes them active again, and ends all their sessions.
 */
export async function resetPassword(
  deps: { users: UsersRepository; sessions: SessionsRepository; clock: Clock },
  username: string | undefined,
  password: string | undefined,
) {
  const user = username ? await deps.users.findByUsername(username) : await deps.users.findFirstAdmin();
  if (!user) return null;
  const newPassword = password ?? randomString(20);
  await deps.users.update(user.id, {
    password_hash: await hashPassword(newPassword),
    status: 'active',
    updated_at: deps.clock.now().toISOString(),
  });
  await deps.sessions.deleteOf(user.id);
  return { username: user.username, password: newPassword, generated: password === undefined };
}

/**
 * A directory people's passwords may live in (modules/ldap): the person a username and password
 * stand for there, null when none, undefined when the directory is off.
 */
export interface PasswordDirectory {
  signIn(username: string, password: string): Promise<UsersTable | null | undefined>;
}

export class AuthService {
  constructor(
    private readonly repo: SessionsRepository,
    private readonly users: UsersService,
    private readonly twoFactor: Pick<TwoFactorService, 'verify' | 'mustEnrol'>,
    private readonly clock: Clock,
    private readonly limiter: AttemptLimiter,
    private readonly sessionTtlMs: number,
    private readonly directory?: PasswordDirectory,
  ) {}

  /**
   * Creates the first admin when there is none: from the given credentials, else `admin` with a
   * random password that the caller prints once. Returns what was created, or null.
   */
  async ensureInitialAdmin(
    username: string | undefined,
    password: string | undefined,
  ): Promise<{ username: string; generatedPassword?: string } | null> {
    if ((await this.users.repo.countAdmins()) > 0) return null;
    const name = username ?? 'admin';
    const generated = password ? undefined : randomString(20);
    const now = this.clock.now().toISOString();
    await this.users.repo.insert(
      await newUserRow({ username: name, role: 'admin', password: password ?? generated! }, now),
    );
    return generated ? { username: name, generatedPassword: generated } : { username: name };
  }

  /**
   * Checks a username and password under the login limits (the form's and WebDAV's Basic alike):
   * the attempt is reserved before the password is verified and refunded when it was right. A
   * disabled account is told so only to someone who knows its password. A password kept here is
   * checked here, always (the admin gets in while the directory is down); a person linked to the
   * LDAP directory, or a name unknown here, is checked by the directory when it is on
   * (docs/accounts.md, "LDAP").
   */
  async verifyCredentials(username: unknown, password: unknown, clientIp: string): Promise<UsersTable> {
    if (typeof username !== 'string' || typeof password !== 'string' || !username.trim() || !password) {
      throw badRequest('auth.login_fields_required');
    }
    const name = username.trim().toLowerCase();
    const userKey = sha256Hex(name); // a username may be long: keys stay small
    const limits: LimitKey[] = [
      { rule: LOGIN_LIMITS.perUserAndAddress, key: `${userKey} ${clientIp}` },
      { rule: LOGIN_LIMITS.perAddress, key: clientIp },
      { rule: LOGIN_LIMITS.perUser, key: userKey, logFields: { username: name } },
    ];
    const attempt = await this.limiter.reserve(limits);

    const local = await this.users.repo.findByUsername(username.trim());
    let user: UsersTable | null | undefined;
    if (local && !local.ldap_dn) {
      user = (await verifyPassword(local.password_hash, password)) ? local : null;
    } else {
      try {
        user = await this.directory?.signIn(username.trim(), password);
      } catch (error) {
        // The directory did not answer: not a guess at the password.
        await attempt.refund();
        throw error;
      }
      // No directory: as long as a wrong password takes, so a stranger cannot tell names apart.
      if (user === undefined) await verifyPassword(await dummyPasswordHash(), password);
    }
    if (!user) throw unauthenticated('auth.invalid_login');
    await attempt.refund();
    if (user.status !== 'active') throw forbidden('auth.account_disabled');
    return user;
  }

  /** The user with this id as a principal, while active and their password is still `passwordHash`. */
  async principalIfUnchanged(userId: string, passwordHash: string): Promise<Principal | null> {
    const user = await this.users.repo.findById(userId);
    if (!user || user.status !== 'active' || user.password_hash !== passwordHash) return null;
    return this.users.principalOf(user);
  }

  /**
   * The active user with this id and their password hash (what links they make are bound to, so a
   * password change or reset retires them), or null when there is no such user.
   */
  async userWithStamp(userId: string): Promise<{ principal: Principal; stamp: string } | null> {
    const user = await this.users.repo.findById(userId);
    if (!user || user.status !== 'active') return null;
    return { principal: await this.users.principalOf(user), stamp: user.password_hash };
  }

  /**
   * A password sign-in; a person with two-factor sign-in also brings a current code or a recovery
   * code (`factor`), or gets 401 TWO_FACTOR_REQUIRED — only after their password was right.
   */
  async login(username: unknown, password: unknown, client: ClientInfo, factor: SecondFactor = {}) {
    const user = await this.verifyCredentials(username, password, client.ip);
    await this.twoFactor.verify(user, factor);
    // Who signed in, for the audit log: known here, not asked of the database again.
    return {
      session: await this.openSession(user, client),
      who: userPrincipal(user, []),
      door: user.ldap_dn ? ('ldap' as const) : ('password' as const),
    };
  }

  /**
   * A new session for a person who proved who they are (a password, single sign-on); their home
   * folder is made now if it is not there yet. The token is answered once; only its hash is kept.
   */
  async openSession(user: UsersTable, client: ClientInfo) {
    if (user.status !== 'active') throw forbidden('auth.account_disabled');
    const token = randomToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.sessionTtlMs).toISOString();
    await this.repo.insert({
      id: randomUUID(),
      user_id: user.id,
      token_hash: sha256Hex(token),
      created_at: now.toISOString(),
      expires_at: expiresAt,
      user_agent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ip: client.ip,
      last_used_at: now.toISOString(),
    });
    await this.users.ensureHome(user);
    const mustEnrol = await this.twoFactor.mustEnrol(user);
    return {
      username: user.username,
      role: user.role,
      token,
      expiresAt,
      // The admin requires a second factor this person has not set up: the session can only do that.
      ...(mustEnrol ? { two_factor_setup_required: true } : {}),
    };
  }

  async logout(token: string): Promise<void> {
    await this.repo.deleteByHash(sha256Hex(token));
  }

  /** The user behind a session token, or null when it is unknown, ended, expired or theirs is disabled. */
  async resolveSession(token: string, client?: ClientInfo): Promise<Principal | null> {
    const now = this.clock.now();
    const found = await this.repo.findBySession(sha256Hex(token), now.toISOString());
    if (!found) return null;
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    if (client && (found.lastUsedAt === null || found.lastUsedAt < staleBefore)) {
      await this.repo.touch(found.sessionId, {
        now: now.toISOString(),
        staleBefore,
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      });
    }
    return this.withEnrolment(found.user, await this.users.principalOf(found.user));
  }

  /** Whether the admin requires a second factor this person has not set up. */
  mustEnrol(user: UsersTable): Promise<boolean> {
    return this.twoFactor.mustEnrol(user);
  }

  /** A person's principal, marked when they must set up two-factor sign-in before anything else. */
  async withEnrolment(user: UsersTable, principal: Principal): Promise<Principal> {
    if (
      principal.type === 'apikey' ||
      principal.type === 'guest' ||
      !(await this.twoFactor.mustEnrol(user))
    ) {
      return principal;
    }
    return { ...principal, mustEnrol: true };
  }

  /** A person's live sessions; `currentToken` marks the one the request came with. */
  async sessions(userId: string, currentToken: string | undefined): Promise<SessionView[]> {
    const currentHash = currentToken ? sha256Hex(currentToken) : undefined;
    const rows = await this.repo.listOf(userId, this.clock.now().toISOString());
    return rows.map((row) => ({
      id: row.id,
      created_at: row.created_at,
      expires_at: row.expires_at,
      last_used_at: row.last_used_at,
      user_agent: row.user_agent,
      ip: row.ip,
      current: row.token_hash === currentHash,
    }));
  }

  async endSession(userId: string, id: string): Promise<void> {
    if (!(await this.repo.deleteOne(userId, id))) throw notFound('auth.session_not_found');
  }

  /** Ends every session of a user but the one the request came with; answers how many ended. */
  endOtherSessions(userId: string, currentToken: string | undefined): Promise<number> {
    return this.repo.deleteOf(userId, currentToken ? sha256Hex(currentToken) : undefined);
  }

  /** Ends every session of a user (disabled, deleted, password set by an admin). */
  async endAllSessions(userId: string): Promise<void> {
    await this.repo.deleteOf(userId);
  }

  async changePassword(userId: string, input: ChangePasswordInput): Promise<void> {
    if (typeof input.currentPassword !== 'string' || input.currentPassword === '') {
      throw badRequest('auth.current_password_required');
    }
    const newUsername =
      typeof input.newUsername === 'string' ? input.newUsername.trim() || undefined : undefined;
    const newPassword =
      typeof input.newPassword === 'string' && input.newPassword !== '' ? input.newPassword : undefined;
    if (!newUsername && !newPassword) throw badRequest('auth.nothing_to_change');

    const attempt = await this.limiter.reserve([{ rule: CHANGE_PASSWORD_LIMIT, key: userId }]);
    const user = await this.users.repo.findById(userId);
    if (!user) throw unauthenticated();
    if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
      throw unauthenticated('auth.current_password_wrong');
    }
    await attempt.refund();

    const changes: { username?: string; password_hash?: string; home_path?: string } = {};
    if (newPassword) {
      if (newPassword.length < MIN_PASSWORD_LENGTH) throw badRequest('auth.password_too_short');
      if (await verifyPassword(user.password_hash, newPassword)) throw badRequest('auth.same_password');
      changes.password_hash = await hashPassword(newPassword);
    }
    if (newUsername && newUsername !== user.username) {
      const other = await this.users.repo.findByUsername(newUsername);
      if (other && other.id !== user.id) throw conflict('auth.username_taken');
      // Members' names become folder names and WebDAV logins (an admin's stays as free as CloudPaste's).
      if (user.role === 'member' && !usernameSchema.safeParse(newUsername).success) {
        throw badRequest('validation.username_invalid');
      }
      changes.username = newUsername;
      // A home named after the old username stays where it is, with the files in it.
      if (user.role === 'member' && user.home_path === null) changes.home_path = homePathOf(user);
    }
    try {
      await this.users.repo.update(user.id, { ...changes, updated_at: this.clock.now().toISOString() });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('auth.username_taken');
      throw error;
    }
    await this.repo.deleteOf(user.id);
  }

  purgeExpiredSessions(): Promise<number> {
    return this.repo.deleteExpired(this.clock.now().toISOString());
  }
}
