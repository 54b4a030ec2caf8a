/**
 * Passkeys (WebAuthn; docs/accounts.md "Passkeys"), through @simplewebauthn/server — no WebAuthn
 * parsing here. A person registers passkeys from My account; a passkey then signs them in on its
 * own (discoverable credentials, user verification required: something they have and something
 * they know or are), or serves as the second factor after their password (TwoFactorService.verify
 * asks `verifyFor`). Having one counts as having two-factor sign-in.
 *
 * Every ceremony's challenge is kept in the database for five minutes with the origin it runs at,
 * and taken once (a delete that reports one row), so any instance can finish what another began.
 * The origin is PUBLIC_URL's, else the request's own (http/public-origin.ts); its host is the RP ID.
 * Only the public key is stored; the sign counter is checked and kept on every use.
 */
import { randomUUID } from 'node:crypto';
import type { PasskeyView } from '@cubby/shared';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { PasskeyChallengesTable, PasskeysTable, UsersTable } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthenticated,
} from '../../errors/app-error.ts';
import type { AttemptLimiter, LimitRule } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PasskeyFactor, TwoFactorService } from '../two-factor/two-factor.service.ts';
import type { PasskeysRepository } from './passkeys.repository.ts';

const RP_NAME = 'Cubby';
/** How long a ceremony may take (the browser's prompt, a fingerprint, a PIN). */
const CHALLENGE_TTL_MS = 5 * 60_000;
export const MAX_PASSKEYS = 20;
const FIFTEEN_MINUTES = 15 * 60_000;
/**
 * Per address, as the password login's limits: sign-in ceremonies begun (each leaves a row for five
 * minutes), and assertions that failed.
 */
const OPTIONS_LIMIT: LimitRule = {
  name: 'passkey sign-in options per address',
  max: 100,
  windowMs: FIFTEEN_MINUTES,
  message: 'common.too_many_attempts',
};
const LOGIN_LIMIT: LimitRule = {
  name: 'passkey sign-in per address',
  max: 20,
  windowMs: FIFTEEN_MINUTES,
  message: 'common.too_many_attempts',
};

/** A ceremony's challenge and what the browser made of it. */
export interface PasskeyProof {
  challenge_id: string;
  response: Record<string, unknown>;
}

export interface NewPasskey extends PasskeyProof {
  name: string;
}

export interface PasskeyOptions<T> {
  challenge_id: string;
  options: T;
}

export interface PasskeysDeps {
  repo: PasskeysRepository;
  clock: Clock;
  limiter: AttemptLimiter;
  twoFactor: Pick<TwoFactorService, 'isOn' | 'issueRecoveryCodes' | 'assertKeepsAFactor'>;
}

/** What a ceremony's answer must show: its challenge, the origin it ran at, and that origin's host as RP ID. */
const expectedOf = (challenge: PasskeyChallengesTable) => ({
  expectedChallenge: challenge.challenge,
  expectedOrigin: challenge.origin,
  expectedRPID: rpIdOf(challenge.origin),
});
const rpIdOf = (origin: string) => new URL(origin).hostname;

export class PasskeysService implements PasskeyFactor {
  constructor(private readonly deps: PasskeysDeps) {}

  async list(userId: string): Promise<PasskeyView[]> {
    return (await this.deps.repo.listOf(userId)).map(view);
  }

  count(userId: string): Promise<number> {
    return this.deps.repo.countOf(userId);
  }

  /** The browser's `navigator.credentials.create` options; their challenge is this person's, once. */
  async registrationOptions(
    user: UsersTable,
    origin: string,
  ): Promise<PasskeyOptions<PublicKeyCredentialCreationOptionsJSON>> {
    const mine = await this.deps.repo.listOf(user.id);
    if (mine.length >= MAX_PASSKEYS) throw conflict('passkeys.too_many', { max: MAX_PASSKEYS });
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rpIdOf(origin),
      userName: user.username,
      userID: new TextEncoder().encode(user.id),
      timeout: CHALLENGE_TTL_MS,
      attestationType: 'none',
      // The authenticator refuses to make a second passkey for the same person.
      excludeCredentials: mine.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    return { challenge_id: await this.newChallenge('register', user.id, options.challenge, origin), options };
  }

  /**
   * Keeps the passkey the browser made with those options. A person's first second factor also
   * brings their ten recovery codes, answered this once.
   */
  async register(user: UsersTable, input: NewPasskey): Promise<PasskeyView & { recovery_codes?: string[] }> {
    const challenge = await this.takeChallenge(input.challenge_id, 'register');
    if (challenge.user_id !== user.id) throw badRequest('passkeys.challenge_expired');
    let info;
    try {
      const verification = await verifyRegistrationResponse({
        response: input.response as unknown as RegistrationResponseJSON,
        ...expectedOf(challenge),
        requireUserVerification: false,
      });
      info = verification.registrationInfo;
    } catch {
      info = undefined;
    }
    if (!info) throw badRequest('passkeys.registration_failed');
    const first = !(await this.deps.twoFactor.isOn(user));
    const row: PasskeysTable = {
      id: randomUUID(),
      user_id: user.id,
      credential_id: info.credential.id,
      public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
      sign_count: info.credential.counter,
      transports: JSON.stringify(info.credential.transports ?? []),
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp ? 1 : 0,
      name: input.name,
      created_at: this.deps.clock.now().toISOString(),
      last_used_at: null,
    };
    try {
      await this.deps.repo.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('passkeys.already_registered');
      throw error;
    }
    if (!first) return view(row);
    return { ...view(row), recovery_codes: await this.deps.twoFactor.issueRecoveryCodes(user.id) };
  }

  async rename(userId: string, id: string, name: string): Promise<PasskeyView> {
    if (!(await this.deps.repo.update(userId, id, { name }))) throw notFound('passkeys.not_found');
    const row = (await this.deps.repo.listOf(userId)).find((r) => r.id === id);
    if (!row) throw notFound('passkeys.not_found');
    return view(row);
  }

  /** Removes one of a person's passkeys; not their last second factor while the admin requires one. */
  async remove(user: UsersTable, id: string): Promise<void> {
    const mine = await this.deps.repo.listOf(user.id);
    if (!mine.some((row) => row.id === id)) throw notFound('passkeys.not_found');
    await this.deps.twoFactor.assertKeepsAFactor(user, {
      totp: user.totp_enabled_at !== null,
      passkeys: mine.length - 1,
    });
    if (!(await this.deps.repo.delete(user.id, id))) throw notFound('passkeys.not_found');
  }

  /** Options for a sign-in with a passkey, alone or as the second factor (any of the site's passkeys). */
  async loginOptions(
    origin: string,
    clientIp: string,
  ): Promise<PasskeyOptions<PublicKeyCredentialRequestOptionsJSON>> {
    await this.deps.limiter.reserve([{ rule: OPTIONS_LIMIT, key: clientIp }]);
    const options = await generateAuthenticationOptions({
      rpID: rpIdOf(origin),
      timeout: CHALLENGE_TTL_MS,
      userVerification: 'required',
    });
    return { challenge_id: await this.newChallenge('login', null, options.challenge, origin), options };
  }

  /**
   * A sign-in with a passkey alone: its assertion must carry user verification. Answers the person,
   * active, for a session; failures count per address.
   */
  async signIn(proof: PasskeyProof, clientIp: string): Promise<UsersTable> {
    const attempt = await this.deps.limiter.reserve([{ rule: LOGIN_LIMIT, key: clientIp }]);
    const { user } = await this.assert(proof, { userVerification: true });
    await attempt.refund();
    if (user.status !== 'active') throw forbidden('auth.account_disabled');
    return user;
  }

  /** The second factor after a password: an assertion by a passkey of this person, and no other. */
  async verifyFor(userId: string, proof: unknown): Promise<boolean> {
    if (!isProof(proof)) return false;
    try {
      await this.assert(proof, { userVerification: false, userId });
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  }

  /**
   * Checks an assertion against its challenge (taken now, whatever follows) and the passkey it names;
   * stores the new sign counter and the time. A counter that did not move forward is refused (a
   * cloned authenticator), as is a passkey of someone other than `userId` when it is given.
   */
  private async assert(
    proof: PasskeyProof,
    expect: { userVerification: boolean; userId?: string },
  ): Promise<{ user: UsersTable }> {
    const challenge = await this.takeChallenge(proof.challenge_id, 'login');
    const credentialId = typeof proof.response['id'] === 'string' ? proof.response['id'] : '';
    const found = credentialId ? await this.deps.repo.findWithUser(credentialId) : undefined;
    if (!found || (expect.userId !== undefined && found.passkey.user_id !== expect.userId)) {
      throw unauthenticated('passkeys.not_recognised');
    }
    const { passkey, user } = found;
    let verified = false;
    let newCounter = 0;
    try {
      const result = await verifyAuthenticationResponse({
        response: proof.response as unknown as AuthenticationResponseJSON,
        ...expectedOf(challenge),
        credential: {
          id: passkey.credential_id,
          publicKey: isoBase64URL.toBuffer(passkey.public_key),
          counter: passkey.sign_count,
          transports: transportsOf(passkey),
        },
        requireUserVerification: expect.userVerification,
      });
      verified = result.verified;
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      verified = false;
    }
    if (!verified) throw unauthenticated('passkeys.not_recognised');
    const stored = await this.deps.repo.recordUse(
      passkey.id,
      passkey.sign_count,
      newCounter,
      this.deps.clock.now().toISOString(),
    );
    if (!stored) throw unauthenticated('passkeys.not_recognised');
    return { user };
  }

  private async newChallenge(
    purpose: PasskeyChallengesTable['purpose'],
    userId: string | null,
    challenge: string,
    origin: string,
  ): Promise<string> {
    const now = this.deps.clock.now();
    await this.deps.repo.deleteExpiredChallenges(now.toISOString());
    const id = randomUUID();
    await this.deps.repo.insertChallenge({
      id,
      purpose,
      user_id: userId,
      challenge,
      origin,
      expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
    });
    return id;
  }

  /** A ceremony's challenge, taken once; unknown, used, expired or of the other purpose: 400. */
  private async takeChallenge(
    id: string,
    purpose: PasskeyChallengesTable['purpose'],
  ): Promise<PasskeyChallengesTable> {
    const row = await this.deps.repo.takeChallenge(id);
    if (!row || row.purpose !== purpose || row.expires_at <= this.deps.clock.now().toISOString()) {
      throw badRequest('passkeys.challenge_expired');
    }
    return row;
  }
}

const isProof = (value: unknown): value is PasskeyProof => {
  const proof = value as Partial<PasskeyProof> | null;
  return (
    typeof proof === 'object' &&
    proof !== null &&
    typeof proof.challenge_id === 'string' &&
    typeof proof.response === 'object' &&
    proof.response !== null
  );
};

function transportsOf(row: Pick<PasskeysTable, 'transports'>) {
  const parsed = JSON.parse(row.transports) as unknown;
  return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
}

function view(row: PasskeysTable): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    device_type: row.device_type,
    backed_up: row.backed_up === 1,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}
