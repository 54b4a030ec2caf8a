/**
 * Email through the admin's SMTP server (docs/operations.md "Email (SMTP)"): the settings live in
 * `settings` rows, the password sealed with SECRET_KEY (lib/secret-box.ts) and answered masked; a
 * masked value sent back keeps the stored one. Sent with nodemailer, one connection per message
 * (notices are few), with short timeouts so a dead server never holds a request or a job long.
 */
import {
  NOTIFY_SECRET_MASK,
  SMTP_SECURITY,
  type SmtpSecurity,
  type SmtpSettings,
  type smtpSettingsSchema,
} from '@cubby/shared';
import nodemailer from 'nodemailer';
import type { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import type { SettingsRepository } from '../settings/settings.repository.ts';

const KEYS = {
  host: 'smtp_host',
  port: 'smtp_port',
  security: 'smtp_security',
  username: 'smtp_username',
  password: 'smtp_password',
  from: 'smtp_from',
} as const;
/** The sealed password's associated data: it opens only as this setting. */
const PASSWORD_AD = 'settings:smtp_password';
const TIMEOUT_MS = 10_000;

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

export class Mailer {
  private readonly box: SecretBox;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly clock: Clock,
    secretKey: string,
  ) {
    this.box = new SecretBox(secretKey, 'cubby smtp password v1');
  }

  /** The settings as the admin route answers them: the password masked. */
  async read(): Promise<SmtpSettings> {
    const { password, ...rest } = await this.stored();
    return { ...rest, password: password ? NOTIFY_SECRET_MASK : '' };
  }

  async update(input: z.output<typeof smtpSettingsSchema>): Promise<SmtpSettings> {
    const now = this.clock.now().toISOString();
    await this.settings.set(KEYS.host, input.host, now);
    await this.settings.set(KEYS.port, String(input.port), now);
    await this.settings.set(KEYS.security, input.security, now);
    await this.settings.set(KEYS.username, input.username, now);
    await this.settings.set(KEYS.from, input.from, now);
    if (input.password !== undefined && input.password !== NOTIFY_SECRET_MASK) {
      await this.settings.set(
        KEYS.password,
        input.password ? this.box.seal(input.password, PASSWORD_AD) : '',
        now,
      );
    }
    return this.read();
  }

  /** Sends one message; false (nothing sent) while email is off. Throws what the server answered. */
  async send(mail: Mail): Promise<boolean> {
    const smtp = await this.stored();
    if (!smtp.enabled || mail.to.length === 0) return false;
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.security === 'tls',
      requireTLS: smtp.security === 'starttls',
      ignoreTLS: smtp.security === 'none',
      ...(smtp.username ? { auth: { user: smtp.username, pass: smtp.password } } : {}),
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    });
    try {
      await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
      return true;
    } finally {
      transport.close();
    }
  }

  private async stored(): Promise<SmtpSettings> {
    const get = (key: string) => this.settings.get(key).then((v) => v ?? '');
    const [host, port, security, username, sealed, from] = await Promise.all([
      get(KEYS.host),
      get(KEYS.port),
      get(KEYS.security),
      get(KEYS.username),
      get(KEYS.password),
      get(KEYS.from),
    ]);
    const portNumber = Number(port);
    const mode = (SMTP_SECURITY as readonly string[]).includes(security)
      ? (security as SmtpSecurity)
      : 'starttls';
    return {
      host,
      port: Number.isInteger(portNumber) && portNumber > 0 ? portNumber : 587,
      security: mode,
      username,
      password: sealed ? this.box.open(sealed, PASSWORD_AD) : '',
      from,
      enabled: host !== '' && from !== '',
    };
  }
}
