/**
 * Signing in with a password kept in an LDAP directory (docs/accounts.md, "LDAP"). One directory,
 * configured by an admin (the service account's password sealed under SECRET_KEY, answered only
 * masked). A sign-in, on one connection with bounded timeouts: StartTLS when asked, a bind as the
 * service account (or none: an anonymous search), a search under the user base with the admin's
 * filter — the username escaped per RFC 4515, so `*` or `)(` match only themselves — which must
 * find exactly one entry, the admin group's `member`/`uniqueMember` checked for that DN, and last a
 * bind as that DN with the given password. An empty password never reaches a bind (LDAP answers an
 * unauthenticated bind as a success). The person is the one linked to that DN, else a new member
 * (when sign-ups are allowed); the admin group, when set, gives the role at every sign-in.
 */
import {
  LDAP_SECRET_MASK,
  LDAP_UNCONFIGURED,
  LDAP_USERNAME_PLACEHOLDER,
  usernameSchema,
  type LdapConfigView,
  type LdapTestFailure,
  type LdapTestResult,
  type LdapTestStep,
  type ldapConfigSchema,
  type ldapTestSchema,
} from '@cubby/shared';
import { Client, Filter, InvalidCredentialsError, NoSuchObjectError, SizeLimitExceededError } from 'ldapts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { LdapConfigTable, UsersTable } from '../../db/schema.ts';
import { upstreamUnavailable } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/crypto.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { newUserRow, type UsersService } from '../users/users.service.ts';
import { LDAP_CONFIG_ID, type LdapRepository } from './ldap.repository.ts';

export type LdapConfigInput = z.output<typeof ldapConfigSchema>;
export type LdapTestInput = z.output<typeof ldapTestSchema>;

/** What a connection needs: the stored settings with the bind password opened. */
type Settings = Omit<LdapConfigTable, 'id' | 'enabled' | 'allow_signup' | 'updated_at' | 'bind_password'> & {
  bind_password: string | null;
};

/** The directory entry a username and password stand for. */
interface Found {
  dn: string;
  email: string | null;
  /** Whether the entry is in the admin group; null when no group is configured. */
  admin: boolean | null;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EAI_AGAIN',
]);

/** Which failure of the connection test an error stands for, given the step it happened in. */
function classify(error: unknown, step: LdapTestStep): { step: LdapTestStep; failure: LdapTestFailure } {
  const { code, message = '' } = (error ?? {}) as { code?: unknown; message?: string };
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return { step: 'reach', failure: 'unreachable' };
  if (/timeout|timed out/i.test(message) || (error as Error | null)?.name === 'TimeoutError') {
    return { step: /connect/i.test(message) ? 'reach' : step, failure: 'timeout' };
  }
  if (
    (typeof code === 'string' && /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|UNABLE_TO_|SELF_SIGNED)/.test(code)) ||
    /TLS|SSL|certificate/i.test(message)
  ) {
    return { step: 'tls', failure: 'tls_failed' };
  }
  if (step === 'bind') return { step, failure: 'bind_refused' };
  if (step === 'tls') return { step, failure: 'tls_failed' };
  return { step, failure: step === 'search' ? 'search_failed' : 'unreachable' };
}

/** The user filter with the username put in, escaped (RFC 4515). */
export function userFilter(template: string, username: string): string {
  return template.split(LDAP_USERNAME_PLACEHOLDER).join(Filter.escape(username));
}

function firstValue(entry: Record<string, unknown>, attribute: string): string | null {
  if (!attribute) return null;
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first !== '' ? first : null;
}

export interface LdapDeps {
  repo: LdapRepository;
  users: UsersService;
  clock: Clock;
  logger: Logger;
  secretKey: string;
}

export class LdapService {
  private readonly box: SecretBox;

  constructor(private readonly deps: LdapDeps) {
    this.box = new SecretBox(deps.secretKey, 'cubby ldap bind password v1');
  }

  // ---- The directory's settings (admin) ----

  async view(): Promise<LdapConfigView> {
    const row = await this.deps.repo.find();
    if (!row) return LDAP_UNCONFIGURED;
    return {
      configured: true,
      enabled: Boolean(row.enabled),
      url: row.url,
      start_tls: Boolean(row.start_tls),
      bind_dn: row.bind_dn,
      bind_password: row.bind_password ? LDAP_SECRET_MASK : '',
      user_base: row.user_base,
      user_filter: row.user_filter,
      email_attribute: row.email_attribute,
      admin_group: row.admin_group,
      allow_signup: Boolean(row.allow_signup),
      timeout_seconds: row.timeout_seconds,
      updated_at: row.updated_at,
    };
  }

  async save(input: LdapConfigInput): Promise<LdapConfigView> {
    const current = await this.deps.repo.find();
    await this.deps.repo.save({
      id: LDAP_CONFIG_ID,
      enabled: Number(input.enabled),
      url: input.url,
      start_tls: Number(input.start_tls),
      bind_dn: input.bind_dn,
      bind_password: this.box.sealEdited(
        input.bind_password,
        current?.bind_password ?? null,
        LDAP_SECRET_MASK,
        LDAP_CONFIG_ID,
      ),
      user_base: input.user_base,
      user_filter: input.user_filter,
      email_attribute: input.email_attribute,
      admin_group: input.admin_group,
      allow_signup: Number(input.allow_signup),
      timeout_seconds: input.timeout_seconds,
      updated_at: this.deps.clock.now().toISOString(),
    });
    return this.view();
  }

  /** The settings a connection uses: these (the form's), their password opened. */
  private settings(row: Omit<LdapConfigTable, 'id' | 'updated_at'>): Settings {
    return {
      url: row.url,
      start_tls: row.start_tls,
      bind_dn: row.bind_dn,
      bind_password: row.bind_password ? this.openPassword(row.bind_password) : null,
      user_base: row.user_base,
      user_filter: row.user_filter,
      email_attribute: row.email_attribute,
      admin_group: row.admin_group,
      timeout_seconds: row.timeout_seconds,
    };
  }

  /** The stored bind password; one sealed under another SECRET_KEY is a clear 503, not a 500. */
  private openPassword(sealed: string): string {
    try {
      return this.box.open(sealed, LDAP_CONFIG_ID);
    } catch {
      this.deps.logger.error('the stored LDAP bind password cannot be opened (was SECRET_KEY changed?)');
      throw upstreamUnavailable('ldap.password_unreadable');
    }
  }

  // ---- Connections ----

  /** Runs `work` on a connection to the directory (after StartTLS when asked), closed after. */
  private async connected<T>(
    s: Settings,
    work: (client: Client) => Promise<T>,
    onStep?: (step: LdapTestStep) => void,
  ) {
    const ms = s.timeout_seconds * 1000;
    const client = new Client({
      url: s.url,
      timeout: ms,
      connectTimeout: ms,
      // (ldapts speaks TLS from the start whenever it is given TLS options: only for ldaps://.)
      ...(s.url.startsWith('ldaps:') ? { tlsOptions: { minVersion: 'TLSv1.2' as const } } : {}),
    });
    try {
      if (s.start_tls) {
        onStep?.('tls');
        await client.startTLS({ minVersion: 'TLSv1.2', servername: new URL(s.url).hostname });
      }
      return await work(client);
    } finally {
      await client.unbind().catch(() => {});
    }
  }

  /** Binds as the service account, when there is one (else the search runs anonymously). */
  private async serviceBind(client: Client, s: Settings): Promise<void> {
    if (s.bind_dn) await client.bind(s.bind_dn, s.bind_password ?? '');
  }

  /** The entries the user filter finds for this username (at most two: one is the answer). */
  private async search(client: Client, s: Settings, username: string) {
    try {
      const { searchEntries } = await client.search(s.user_base, {
        scope: 'sub',
        filter: userFilter(s.user_filter, username),
        sizeLimit: 2,
        timeLimit: s.timeout_seconds,
        attributes: s.email_attribute ? [s.email_attribute] : ['1.1'],
      });
      return searchEntries;
    } catch (error) {
      // More than the two asked for: as ambiguous as two.
      if (error instanceof SizeLimitExceededError) return [{ dn: '' }, { dn: '' }];
      throw error;
    }
  }

  /** Whether `dn` is a member of the admin group; null when none is configured. */
  private async inAdminGroup(client: Client, s: Settings, dn: string): Promise<boolean | null> {
    if (!s.admin_group) return null;
    const member = Filter.escape(dn);
    try {
      const { searchEntries } = await client.search(s.admin_group, {
        scope: 'base',
        filter: `(|(member=${member})(uniqueMember=${member}))`,
        timeLimit: s.timeout_seconds,
        attributes: ['1.1'],
      });
      return searchEntries.length > 0;
    } catch (error) {
      if (!(error instanceof NoSuchObjectError)) throw error;
      this.deps.logger.warn({ group: s.admin_group }, 'the LDAP admin group does not exist');
      return false;
    }
  }

  // ---- Signing in ----

  /**
   * The person this username and password stand for in the directory — linked, or made now when
   * sign-ups are allowed — or null (no such entry, the wrong password, sign-up not allowed), or
   * undefined when LDAP sign-in is off. A directory that does not answer (or refuses the service
   * account) is a 503, logged without the password.
   */
  async signIn(username: string, password: string): Promise<UsersTable | null | undefined> {
    const row = await this.deps.repo.find();
    if (!row?.enabled) return undefined;
    if (!password || !username) return null;
    let found: Found | null;
    try {
      const s = this.settings(row);
      found = await this.connected(s, async (client) => {
        await this.serviceBind(client, s);
        const entries = await this.search(client, s, username);
        if (entries.length !== 1) return null;
        const entry = entries[0]!;
        const admin = await this.inAdminGroup(client, s, entry.dn);
        try {
          await client.bind(entry.dn, password);
        } catch (error) {
          if (error instanceof InvalidCredentialsError) return null;
          throw error;
        }
        return { dn: entry.dn, email: firstValue(entry, s.email_attribute), admin };
      });
    } catch (error) {
      const { message, code, name } = error as { message?: string; code?: unknown; name?: string };
      this.deps.logger.warn(
        { url: row.url, err: { name, message, code } },
        'the LDAP directory failed a sign-in',
      );
      throw upstreamUnavailable('ldap.unavailable');
    }
    if (!found) return null;
    return this.personFor(found, username, Boolean(row.allow_signup));
  }

  /** The person linked to the entry (linked now if the name is theirs), else a new one, else null. */
  private async personFor(found: Found, username: string, allowSignup: boolean): Promise<UsersTable | null> {
    const now = this.deps.clock.now().toISOString();
    const role = found.admin === null ? undefined : found.admin ? 'admin' : 'member';
    let user = await this.deps.repo.findUserByDn(found.dn);
    if (!user) {
      const named = await this.deps.users.repo.findByUsername(username);
      if (named?.ldap_dn) {
        // The same name, its entry moved (renamed, another branch): the directory says who it is now.
        await this.deps.repo.setUserDn(named.id, found.dn, now);
        user = { ...named, ldap_dn: found.dn };
      } else if (named) {
        return null; // a password kept here: never the directory's
      }
    }
    if (!user) {
      if (!allowSignup || !usernameSchema.safeParse(username).success) return null;
      // Nobody knows this password: the directory's is the one that counts.
      user = await newUserRow(
        { username, role: role ?? 'member', email: found.email, password: randomToken(), ldap_dn: found.dn },
        now,
      );
      await this.deps.users.insert(user);
      this.deps.logger.info({ user: user.id }, 'a person signed up through LDAP');
      return user;
    }
    if (user.status !== 'active') return user; // told so by the caller, after the right password
    return this.deps.users.withProvidedRole(user, role);
  }

  // ---- The connection test (admin) ----

  /** The test's search: for the username when one is given, else the user base itself. */
  private async testSearch(client: Client, s: Settings, username: string | undefined) {
    type Step = LdapTestResult['steps'][number];
    if (!username) {
      await client.search(s.user_base, { scope: 'base', attributes: ['1.1'], timeLimit: s.timeout_seconds });
      return { step: { step: 'search', ok: true } as Step };
    }
    const entries = await this.search(client, s, username);
    if (entries.length !== 1) {
      const failure = entries.length ? 'user_ambiguous' : 'user_not_found';
      return { step: { step: 'search', ok: false, failure } as Step };
    }
    const { dn } = entries[0]!;
    const user = {
      dn,
      email: firstValue(entries[0]!, s.email_attribute),
      admin: await this.inAdminGroup(client, s, dn),
    };
    return { step: { step: 'search', ok: true } as Step, user };
  }

  /**
   * Tries the settings in the form step by step — reach the server, TLS, the service bind, the
   * search (for `username`, else the user base itself) — and answers each step's outcome.
   */
  async test(input: LdapTestInput): Promise<LdapTestResult> {
    const current = await this.deps.repo.find();
    const s = this.settings({
      ...input,
      enabled: 1,
      allow_signup: 0,
      start_tls: Number(input.start_tls),
      bind_password: this.box.sealEdited(
        input.bind_password,
        current?.bind_password ?? null,
        LDAP_SECRET_MASK,
        LDAP_CONFIG_ID,
      ),
    });
    const steps: LdapTestResult['steps'] = [];
    const usesTls = s.url.startsWith('ldaps:') || Boolean(s.start_tls);
    let step: LdapTestStep = 'reach';
    const passed = (upTo: LdapTestStep) => {
      for (const name of ['reach', 'tls', 'bind'] as const) {
        if (name === upTo) return;
        if (name === 'tls' && !usesTls) continue;
        if (name === 'bind' && !s.bind_dn) continue;
        if (!steps.some((x) => x.step === name)) steps.push({ step: name, ok: true });
      }
    };
    let user: LdapTestResult['user'];
    try {
      await this.connected(
        s,
        async (client) => {
          if (s.bind_dn) {
            step = 'bind';
            await this.serviceBind(client, s);
          }
          step = 'search';
          const searched = await this.testSearch(client, s, input.username);
          // The search answered: the server was reached, TLS held and the bind took.
          passed('search');
          steps.push(searched.step);
          user = searched.user;
        },
        (at) => (step = at),
      );
    } catch (error) {
      const failed = classify(error, step);
      passed(failed.step);
      steps.push({ step: failed.step, ok: false, failure: failed.failure, detail: (error as Error).message });
    }
    return { ok: steps.every((x) => x.ok), steps, ...(user ? { user } : {}) };
  }
}
