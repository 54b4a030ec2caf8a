/**
 * Single sign-on with OpenID Connect (docs/accounts.md, "Single sign-on"). Admins configure
 * providers (the client secret sealed under SECRET_KEY, answered only masked). A sign-in goes
 * through openid-client: discovery, the authorization code flow with PKCE (S256), state and nonce
 * kept in the database for ten minutes and used once, and the ID token checked by the library
 * (signature, issuer, audience, expiry, nonce) against the world's time. Then the person: the one
 * already linked to the provider's subject, else the one whose email equals a verified email claim
 * (when the provider links by email), else a new member (when it allows sign-ups), else a refusal.
 * A role claim, when configured, sets the role at sign-up and again at every sign-in.
 */
import { randomUUID } from 'node:crypto';
import {
  OIDC_SECRET_MASK,
  USERNAME_MAX,
  USERNAME_PATTERN,
  type OidcErrorCode,
  type OidcProviderButton,
  type OidcProviderView,
  type oidcProviderCreateSchema,
  type oidcProviderUpdateSchema,
} from '@cubby/shared';
import * as oidc from 'openid-client';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { OidcProvidersTable, UsersTable } from '../../db/schema.ts';
import { forbidden, notFound, upstreamFailed } from '../../errors/app-error.ts';
import type { MessageKey } from '../../errors/messages.ts';
import type { AttemptLimiter, LimitRule } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomString, randomToken, sha256Hex } from '../../lib/crypto.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import type { AuthService, ClientInfo } from '../auth/auth.service.ts';
import { newUserRow, type UsersService } from '../users/users.service.ts';
import type { OidcRepository } from './oidc.repository.ts';

/** How long a sign-in may take at the provider (the user typing a password, a second factor). */
const LOGIN_TTL_MS = 10 * 60_000;
/** How long a provider's discovery document is trusted before it is fetched again. */
const DISCOVERY_TTL_MS = 60 * 60_000;
/** Seconds any call to a provider may take. */
const PROVIDER_TIMEOUT_S = 10;
/** Candidate usernames tried (`alice`, `alice-2`…) before a random suffix. */
const USERNAME_TRIES = 5;
/** Sign-ins begun per address (each stores state until it expires), whatever their outcome. */
const START_LIMIT: LimitRule = {
  name: 'single sign-on starts per address',
  max: 30,
  windowMs: 10 * 60_000,
  message: 'common.too_many_attempts',
};

export type OidcProviderInput = z.output<typeof oidcProviderCreateSchema>;
export type OidcProviderChanges = z.output<typeof oidcProviderUpdateSchema>;

/** A refusal the sign-in ends with: its message key is `oidc.<code>`. */
const refusal = (code: OidcErrorCode) => forbidden(`oidc.${code}` as MessageKey);

/** The error code a failed sign-in redirects with, from whatever it threw. */
export function oidcErrorCode(error: unknown): OidcErrorCode {
  const key = (error as { messageKey?: unknown } | null)?.messageKey;
  if (typeof key === 'string' && key.startsWith('oidc.')) return key.slice('oidc.'.length) as OidcErrorCode;
  if ((error as { code?: unknown } | null)?.code === 'RATE_LIMITED') return 'rate_limited';
  return 'failed';
}

/** The error a failure of openid-client stands for (its codes are oauth4webapi's). */
function libraryFailure(error: unknown) {
  const { code, cause, error: oauthError } = error as { code?: string; cause?: unknown; error?: string };
  // openid-client wraps oauth4webapi's error, whose own cause names the claim at fault.
  const claim = (cause as { cause?: { claim?: string } } | undefined)?.cause?.claim;
  if (error instanceof oidc.AuthorizationResponseError) return refusal('denied');
  if (code === 'OAUTH_RESPONSE_BODY_ERROR' && oauthError === 'invalid_grant') return refusal('code_rejected');
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') return refusal('token_expired');
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && claim === 'aud') return refusal('token_audience');
  if (error instanceof TypeError || (error as Error | null)?.name === 'TimeoutError') {
    return upstreamFailed('oidc.provider_unreachable');
  }
  return refusal('token_invalid');
}

/** The values of a claim, which may be a string or an array (`groups`), or a dotted path (`realm_access.roles`). */
function claimValues(claims: Record<string, unknown>, name: string): string[] {
  let value: unknown = name in claims ? claims[name] : undefined;
  if (value === undefined) {
    value = name
      .split('.')
      .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], claims);
  }
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The role a provider's claims give, or undefined when the provider maps no role. */
export function roleFromClaims(
  provider: Pick<OidcProvidersTable, 'role_claim' | 'admin_values'>,
  claims: Record<string, unknown>,
): 'admin' | 'member' | undefined {
  if (!provider.role_claim) return undefined;
  const adminValues = JSON.parse(provider.admin_values) as string[];
  return claimValues(claims, provider.role_claim).some((v) => adminValues.includes(v)) ? 'admin' : 'member';
}

/** A username made from the claims, valid per USERNAME_PATTERN (before it is made unique). */
export function usernameFromClaims(claims: Record<string, unknown>): string {
  const from = [claims['preferred_username'], String(claims['email'] ?? '').split('@')[0], claims['name']];
  for (const raw of from) {
    if (typeof raw !== 'string') continue;
    const name = raw
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}._-]+/gu, '-')
      .replace(/^[^\p{L}\p{N}]+/u, '')
      .slice(0, USERNAME_MAX - 8)
      .replace(/[._-]+$/, '');
    if (name && USERNAME_PATTERN.test(name)) return name;
  }
  return 'user';
}

interface Discovered {
  /** The provider row's id and `updated_at`: an edit on any instance makes a new key. */
  key: string;
  fetchedAt: number;
  metadata: oidc.ServerMetadata;
}

export interface OidcDeps {
  repo: OidcRepository;
  users: UsersService;
  auth: AuthService;
  clock: Clock;
  logger: Logger;
  limiter: AttemptLimiter;
  secretKey: string;
}

export class OidcService {
  private readonly box: SecretBox;
  private readonly discovered = new Map<string, Discovered>();

  constructor(private readonly deps: OidcDeps) {
    this.box = new SecretBox(deps.secretKey, 'cubby oidc client secrets v1');
  }

  // ---- Providers (admin) ----

  async list(origin: string): Promise<OidcProviderView[]> {
    return (await this.deps.repo.listProviders()).map((row) => this.view(row, origin));
  }

  async buttons(): Promise<OidcProviderButton[]> {
    return (await this.deps.repo.listProviders())
      .filter((row) => row.enabled)
      .map((row) => ({ id: row.id, name: row.name }));
  }

  async create(input: OidcProviderInput, origin: string): Promise<OidcProviderView> {
    const id = randomUUID();
    const now = this.deps.clock.now().toISOString();
    const row: OidcProvidersTable = {
      id,
      name: input.name,
      issuer: input.issuer,
      client_id: input.client_id,
      client_secret: this.sealSecret(id, input.client_secret),
      scopes: input.scopes,
      allow_signup: Number(input.allow_signup),
      link_by_email: Number(input.link_by_email),
      role_claim: input.role_claim || null,
      admin_values: JSON.stringify(input.admin_values),
      enabled: Number(input.enabled),
      created_at: now,
      updated_at: now,
    };
    await this.deps.repo.insertProvider(row);
    return this.view(row, origin);
  }

  async update(id: string, input: OidcProviderChanges, origin: string): Promise<OidcProviderView> {
    const current = await this.providerOrThrow(id);
    const changes: Partial<OidcProvidersTable> = {
      name: input.name,
      issuer: input.issuer,
      client_id: input.client_id,
      scopes: input.scopes,
      allow_signup: input.allow_signup === undefined ? undefined : Number(input.allow_signup),
      link_by_email: input.link_by_email === undefined ? undefined : Number(input.link_by_email),
      role_claim: input.role_claim === undefined ? undefined : input.role_claim || null,
      admin_values: input.admin_values && JSON.stringify(input.admin_values),
      enabled: input.enabled === undefined ? undefined : Number(input.enabled),
      updated_at: this.deps.clock.now().toISOString(),
    };
    changes.client_secret = this.box.sealEdited(
      input.client_secret,
      current.client_secret,
      OIDC_SECRET_MASK,
      id,
    );
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    await this.deps.repo.updateProvider(id, defined);
    this.discovered.delete(id);
    return this.view({ ...current, ...defined }, origin);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.deps.repo.deleteProvider(id))) throw notFound('oidc.provider_not_found');
    this.discovered.delete(id);
  }

  private view(row: OidcProvidersTable, origin: string): OidcProviderView {
    return {
      id: row.id,
      name: row.name,
      issuer: row.issuer,
      client_id: row.client_id,
      client_secret: row.client_secret ? OIDC_SECRET_MASK : '',
      scopes: row.scopes,
      allow_signup: Boolean(row.allow_signup),
      link_by_email: Boolean(row.link_by_email),
      role_claim: row.role_claim,
      admin_values: JSON.parse(row.admin_values) as string[],
      enabled: Boolean(row.enabled),
      redirect_uri: callbackUrl(origin, row.id),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  private sealSecret(id: string, secret: string | undefined): string | null {
    return secret ? this.box.seal(secret, id) : null;
  }

  private async providerOrThrow(id: string): Promise<OidcProvidersTable> {
    const row = await this.deps.repo.findProvider(id);
    if (!row) throw notFound('oidc.provider_not_found');
    return row;
  }

  // ---- Signing in ----

  /** Begins a sign-in: answers the provider's authorization URL to redirect the browser to. */
  async start(providerId: string, origin: string, clientIp: string): Promise<string> {
    // Each start stores a sign-in under way until it expires: an address may begin only so many.
    await this.deps.limiter.reserve([{ rule: START_LIMIT, key: clientIp }]);
    const provider = await this.enabledProvider(providerId);
    const config = await this.configuration(provider);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    // The round trip through the provider runs on the world's time, as the provider's tokens do
    // (never the app's test clock, which other requests may move meanwhile).
    const now = new Date();
    await this.deps.repo.deleteExpiredLogins(now.toISOString());
    await this.deps.repo.insertLogin({
      state_hash: sha256Hex(state),
      provider_id: provider.id,
      nonce,
      code_verifier: verifier,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LOGIN_TTL_MS).toISOString(),
    });
    return oidc
      .buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl(origin, provider.id),
        scope: provider.scopes,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      })
      .toString();
  }

  /**
   * Finishes a sign-in at the callback (`url`: the whole callback URL the browser came back with):
   * the sign-in it belongs to is taken (once), the code exchanged and the ID token checked, then the
   * person found, linked or made, and a session opened.
   */
  async finish(providerId: string, url: URL, origin: string, client: ClientInfo) {
    const state = url.searchParams.get('state');
    const login = state ? await this.deps.repo.takeLogin(sha256Hex(state)) : undefined;
    if (!state || !login || login.provider_id !== providerId) throw refusal('state_invalid');
    if (login.expires_at < new Date().toISOString()) throw refusal('state_invalid');
    const provider = await this.enabledProvider(providerId);
    const config = await this.configuration(provider);
    // The library reads the code (or the provider's error) from the URL it is told it was called at.
    const callback = new URL(callbackUrl(origin, provider.id));
    callback.search = url.search;

    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
      if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
        // Some providers put email and groups only here; what the ID token says comes first.
        const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims['sub']));
        claims = { ...info, ...claims };
      }
    } catch (error) {
      throw libraryFailure(error);
    }
    const user = await this.personFor(provider, claims);
    this.deps.logger.info({ provider: provider.id, user: user.id }, 'signed in through single sign-on');
    return this.deps.auth.openSession(user, client);
  }

  private async enabledProvider(id: string): Promise<OidcProvidersTable> {
    const provider = await this.deps.repo.findProvider(id);
    if (!provider || !provider.enabled) throw refusal('provider_unknown');
    return provider;
  }

  /** The openid-client configuration for a provider: its discovery document (cached) and this client. */
  private async configuration(provider: OidcProvidersTable): Promise<oidc.Configuration> {
    const key = `${provider.id} ${provider.updated_at}`;
    let found = this.discovered.get(provider.id);
    if (!found || found.key !== key || Date.now() - found.fetchedAt > DISCOVERY_TTL_MS) {
      try {
        const discovered = await oidc.discovery(
          new URL(provider.issuer),
          provider.client_id,
          undefined,
          undefined,
          {
            execute: insecure(provider.issuer),
            timeout: PROVIDER_TIMEOUT_S,
          },
        );
        found = { key, fetchedAt: Date.now(), metadata: discovered.serverMetadata() };
        this.discovered.set(provider.id, found);
      } catch (error) {
        this.deps.logger.warn(
          { provider: provider.id, err: { message: (error as Error).message } },
          'the single sign-on provider did not answer its discovery document',
        );
        throw upstreamFailed('oidc.provider_unreachable');
      }
    }
    const secret = provider.client_secret ? this.box.open(provider.client_secret, provider.id) : undefined;
    const config = new oidc.Configuration(
      found.metadata,
      provider.client_id,
      // The provider's tokens carry the world's time, and are checked against it (openid-client's own).
      {},
      secret ? oidc.ClientSecretPost(secret) : oidc.None(),
    );
    for (const option of insecure(provider.issuer)) option(config);
    config.timeout = PROVIDER_TIMEOUT_S;
    return config;
  }

  /** The person these claims stand for: linked, linked now by verified email, or made now; else refused. */
  private async personFor(
    provider: OidcProvidersTable,
    claims: Record<string, unknown>,
  ): Promise<UsersTable> {
    const subject = String(claims['sub']);
    const now = this.deps.clock.now().toISOString();
    const role = roleFromClaims(provider, claims);
    const identity = await this.deps.repo.findIdentity(provider.id, subject);
    let user = identity && (await this.deps.users.repo.findById(identity.user_id));
    if (user) {
      await this.deps.repo.touchIdentity(provider.id, subject, now);
      return this.withRole(user, role);
    }

    const email = typeof claims['email'] === 'string' ? claims['email'] : undefined;
    const verified = claims['email_verified'] === true;
    if (provider.link_by_email && email) {
      const matches = await this.deps.repo.findUsersByEmail(email);
      // An unverified claim never reaches an existing account, nor makes a second one beside it.
      if (matches.length > 0 && !verified) throw refusal('email_unverified');
      if (matches.length === 1) user = matches[0];
    }
    if (!user) {
      if (!provider.allow_signup) throw refusal('signup_not_allowed');
      user = await this.signUp(claims, role ?? 'member', verified ? email : undefined);
    } else {
      user = await this.withRole(user, role);
    }
    await this.deps.repo.insertIdentity({
      provider_id: provider.id,
      subject,
      user_id: user.id,
      created_at: now,
      last_login_at: now,
    });
    return user;
  }

  /** The user with the role the provider gives (the last active admin is never demoted); disabled ones refused. */
  private async withRole(user: UsersTable, role: 'admin' | 'member' | undefined): Promise<UsersTable> {
    if (user.status !== 'active') throw refusal('account_disabled');
    return this.deps.users.withProvidedRole(user, role);
  }

  private async signUp(
    claims: Record<string, unknown>,
    role: 'admin' | 'member',
    email: string | undefined,
  ): Promise<UsersTable> {
    const base = usernameFromClaims(claims);
    const now = this.deps.clock.now().toISOString();
    for (let attempt = 1; ; attempt++) {
      const username =
        attempt === 1
          ? base
          : attempt <= USERNAME_TRIES
            ? `${base}-${attempt}`
            : `${base}-${randomString(6)}`;
      if (attempt <= USERNAME_TRIES && (await this.deps.users.repo.findByUsername(username))) continue;
      // Nobody knows the password: this person signs in through the provider until an admin sets one.
      const user = await newUserRow({ username, role, email: email ?? null, password: randomToken() }, now);
      try {
        await this.deps.users.insert(user);
        return user;
      } catch (error) {
        // Taken by someone signing up at the same moment: the next name.
        if (attempt > USERNAME_TRIES + 3 || (error as { status?: number }).status !== 409) throw error;
      }
    }
  }
}

/** What the admin registers at the provider as the redirect URI. */
export function callbackUrl(origin: string, providerId: string): string {
  return `${origin}/api/auth/oidc/${encodeURIComponent(providerId)}/callback`;
}

/** openid-client refuses plain http; the schema admits it only for a provider on this machine. */
function insecure(issuer: string): ((config: oidc.Configuration) => void)[] {
  return issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [];
}
