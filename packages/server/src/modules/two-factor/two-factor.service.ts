/**
 * Two-factor sign-in with TOTP (RFC 6238; docs/accounts.md): a person sets up an authenticator app
 * (the secret is shown once as an otpauth:// link and stored sealed), turns it on with a first code,
 * and gets ten one-time recovery codes (shown once, stored as keyed hashes). From then on a sign-in
 * with their password also needs a current code or a recovery code. Codes are checked ±1 time step
 * (30 s), each step at most once (no replay), under a guessing limit per person.
 *
 * A passkey (modules/passkeys) counts as two-factor sign-in too: whoever has TOTP on or a passkey
 * registered needs a second factor after their password — a code, a recovery code or a passkey.
 */
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { SecondFactorMethod, TwoFactorPolicy } from '@cubby/shared';
import type { UsersTable } from '../../db/schema.ts';
import { badRequest, conflict, twoFactorRequired } from '../../errors/app-error.ts';
import type { AttemptLimiter, LimitRule } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import { hmacHex, randomString } from '../../lib/crypto.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';

const PERIOD_SECONDS = 30;
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Wrong codes, per person: 10 in 15 minutes (a 6-digit code then stays out of reach). */
const CODE_LIMIT: LimitRule = {
  name: 'second factor per user',
  max: 10,
  windowMs: 15 * 60_000,
  warn: true,
  message: 'common.too_many_attempts',
};

/** The second factor a sign-in brings: a code from the app, a recovery code, or a passkey's assertion. */
export interface SecondFactor {
  otp?: unknown;
  recovery_code?: unknown;
  /** `{challenge_id, response}`, from the passkey sign-in options (modules/passkeys). */
  passkey?: unknown;
}

/** What two-factor sign-in asks of a person's passkeys (modules/passkeys/passkeys.service.ts). */
export interface PasskeyFactor {
  count(userId: string): Promise<number>;
  /** Whether `proof` is a valid assertion by a passkey of this person (used up either way). */
  verifyFor(userId: string, proof: unknown): Promise<boolean>;
}

type FactorsOf = Pick<UsersTable, 'id' | 'totp_enabled_at'>;

export class TwoFactorService {
  private readonly box: SecretBox;

  constructor(
    private readonly deps: {
      repo: TwoFactorRepository;
      clock: Clock;
      limiter: AttemptLimiter;
      secretKey: string;
      issuer: string;
      /** Who must sign in with two factors (the admin's setting). */
      policy: () => Promise<TwoFactorPolicy>;
      passkeys: PasskeyFactor;
    },
  ) {
    this.box = new SecretBox(deps.secretKey, 'cubby totp secrets v1');
  }

  /** Whether a person signs in with a second factor: TOTP is on, or they have a passkey. */
  async isOn(user: FactorsOf): Promise<boolean> {
    return totpOn(user) || (await this.deps.passkeys.count(user.id)) > 0;
  }

  /** Whether the admin requires a second factor of this person (the setting `require_two_factor`). */
  async required(user: Pick<UsersTable, 'role'>): Promise<boolean> {
    const policy = await this.deps.policy();
    return policy === 'everyone' || (policy === 'admins' && user.role === 'admin');
  }

  /** Whether the admin requires a second factor of this person and they have none yet. */
  async mustEnrol(user: FactorsOf & Pick<UsersTable, 'role'>): Promise<boolean> {
    // The setting first: a person's passkeys are only counted when it asks for two factors.
    return !totpOn(user) && (await this.required(user)) && !(await this.isOn(user));
  }

  async status(user: UsersTable): Promise<{
    totp: boolean;
    passkeys: number;
    recovery_codes_left: number;
    required: boolean;
  }> {
    const passkeys = await this.deps.passkeys.count(user.id);
    const on = totpOn(user) || passkeys > 0;
    return {
      totp: totpOn(user),
      passkeys,
      recovery_codes_left: on ? await this.deps.repo.countRecoveryCodesLeft(user.id) : 0,
      required: await this.required(user),
    };
  }

  /** A new secret for the authenticator app, kept aside until a first code proves it was taken. */
  async setup(user: UsersTable): Promise<{ secret: string; otpauth_url: string }> {
    if (totpOn(user)) throw conflict('two_factor.already_on');
    const secret = new Secret({ size: 20 });
    await this.deps.repo.update(user.id, { totp_pending: this.box.seal(secret.base32, user.id) });
    return { secret: secret.base32, otpauth_url: this.totp(user, secret).toString() };
  }

  /** Turns TOTP on with a first code from the app; answers the recovery codes (shown this once). */
  async enable(user: UsersTable, code: unknown): Promise<{ recovery_codes: string[] }> {
    if (totpOn(user)) throw conflict('two_factor.already_on');
    if (!user.totp_pending) throw badRequest('two_factor.setup_first');
    const secret = Secret.fromBase32(this.box.open(user.totp_pending, user.id));
    const step = await this.checkCode(user, secret, code);
    if (step === null) throw badRequest('two_factor.code_wrong');
    await this.deps.repo.update(user.id, {
      totp_secret: user.totp_pending,
      totp_pending: null,
      totp_enabled_at: this.deps.clock.now().toISOString(),
      totp_last_step: step,
    });
    return { recovery_codes: await this.issueRecoveryCodes(user.id) };
  }

  /** Turns TOTP off; it takes a current code or a recovery code (the password alone is not enough). */
  async disable(user: UsersTable, factor: SecondFactor): Promise<void> {
    if (!totpOn(user)) throw conflict('two_factor.already_off');
    await this.verify(user, factor);
    const passkeys = await this.deps.passkeys.count(user.id);
    await this.assertKeepsAFactor(user, { totp: false, passkeys });
    await this.deps.repo.update(user.id, {
      totp_secret: null,
      totp_pending: null,
      totp_enabled_at: null,
      totp_last_step: null,
    });
    // Recovery codes stay while a passkey still makes two-factor sign-in.
    if (passkeys === 0) await this.deps.repo.setRecoveryCodes(user.id, []);
  }

  /**
   * 409 when the admin requires two factors of this person and what would be `left` of theirs
   * (turning TOTP off, removing a passkey) is none: they keep at least one.
   */
  async assertKeepsAFactor(
    user: Pick<UsersTable, 'role'>,
    left: { totp: boolean; passkeys: number },
  ): Promise<void> {
    if (!left.totp && left.passkeys === 0 && (await this.required(user))) {
      throw conflict('two_factor.keep_one');
    }
  }

  /** New recovery codes for old ones (all of those stop); it takes a current code. */
  async regenerate(user: UsersTable, factor: SecondFactor): Promise<{ recovery_codes: string[] }> {
    if (!(await this.isOn(user))) throw conflict('two_factor.already_off');
    await this.verify(user, factor);
    return { recovery_codes: await this.issueRecoveryCodes(user.id) };
  }

  /** The second factors a person has: TOTP, passkeys, and recovery codes while any is left. */
  private async methodsOf(user: UsersTable): Promise<SecondFactorMethod[]> {
    const methods: SecondFactorMethod[] = [];
    if (totpOn(user)) methods.push('totp');
    if ((await this.deps.passkeys.count(user.id)) > 0) methods.push('passkey');
    if ((await this.deps.repo.countRecoveryCodesLeft(user.id)) > 0) methods.push('recovery_code');
    return methods;
  }

  /**
   * For a sign-in whose password was right: nothing when the person has no second factor; else a
   * current code, an unused recovery code or an assertion by one of their passkeys, or 401
   * TWO_FACTOR_REQUIRED (missing, or wrong).
   */
  async verify(user: UsersTable, factor: SecondFactor): Promise<void> {
    if (!(await this.isOn(user))) return;
    const otp = typeof factor.otp === 'string' ? factor.otp.replace(/\s/g, '') : '';
    const recovery = typeof factor.recovery_code === 'string' ? normalizeRecovery(factor.recovery_code) : '';
    const passkey = factor.passkey ?? null;
    if (!otp && !recovery && passkey === null) {
      const methods = await this.methodsOf(user);
      throw twoFactorRequired(
        methods.includes('totp') ? 'auth.two_factor_required' : 'auth.two_factor_passkey',
        methods,
      );
    }
    const attempt = await this.deps.limiter.reserve([{ rule: CODE_LIMIT, key: user.id }]);
    let ok: boolean;
    if (passkey !== null) {
      // Another person's passkey proves nothing about this one (passkeys.service.ts checks whose).
      ok = await this.deps.passkeys.verifyFor(user.id, passkey);
    } else if (otp && totpOn(user)) {
      const secret = Secret.fromBase32(this.box.open(user.totp_secret!, user.id));
      const step = await this.checkCode(user, secret, otp);
      ok = step !== null && (await this.deps.repo.takeStep(user.id, step));
    } else if (recovery) {
      ok = await this.deps.repo.useRecoveryCode(
        user.id,
        this.hashRecovery(recovery),
        this.deps.clock.now().toISOString(),
      );
    } else {
      ok = false; // a code, and TOTP is not on
    }
    if (!ok) throw twoFactorRequired('auth.two_factor_wrong', await this.methodsOf(user));
    await attempt.refund();
  }

  /** The time step a code is right for (±1), or null. */
  private async checkCode(user: UsersTable, secret: Secret, code: unknown): Promise<number | null> {
    if (typeof code !== 'string' || !/^\d{6}$/.test(code.replace(/\s/g, ''))) return null;
    const timestamp = this.deps.clock.now().getTime();
    const delta = this.totp(user, secret).validate({ token: code.replace(/\s/g, ''), timestamp, window: 1 });
    if (delta === null) return null;
    return Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  }

  private totp(user: Pick<UsersTable, 'username'>, secret: Secret): TOTP {
    return new TOTP({
      issuer: this.deps.issuer,
      label: user.username,
      algorithm: 'SHA1',
      digits: 6,
      period: PERIOD_SECONDS,
      secret,
    });
  }

  /** Ten new recovery codes (the old ones stop), answered this once; stored only as keyed hashes. */
  async issueRecoveryCodes(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = randomString(10, RECOVERY_ALPHABET);
      return `${raw.slice(0, 5)}-${raw.slice(5)}`;
    });
    await this.deps.repo.setRecoveryCodes(
      userId,
      codes.map((code) => ({ id: randomUUID(), code_hash: this.hashRecovery(normalizeRecovery(code)) })),
    );
    return codes;
  }

  private hashRecovery(code: string): string {
    return hmacHex(this.deps.secretKey, `recovery-code:${code}`);
  }
}

const totpOn = (user: Pick<UsersTable, 'totp_enabled_at'>) => user.totp_enabled_at !== null;

/** A recovery code as typed (any case, with or without its dash or spaces) in one form. */
const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
