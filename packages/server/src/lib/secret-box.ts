/**
 * Seals small secrets (storage credentials) for storage at rest: AES-256-GCM with a key derived from
 * SECRET_KEY by HKDF-SHA256, a fresh 96-bit nonce per value, and the record's id as associated
 * data, so a sealed value copied onto another record does not open. Format: `v1:` + base64url of
 * nonce ‖ ciphertext ‖ 16-byte tag.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string, purpose = 'cubby storage credentials v1') {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), purpose, 32));
  }

  seal(plaintext: string, associatedData: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
  }

  /**
   * What to store for a secret an edit form sent: the mask sent back (or no field at all) keeps
   * `stored`; '' removes it (null); anything else is sealed.
   */
  sealEdited(
    given: string | undefined,
    stored: string | null,
    mask: string,
    associatedData: string,
  ): string | null {
    if (given === undefined || given === mask) return stored;
    return given ? this.seal(given, associatedData) : null;
  }

  /** Throws when the value was not sealed by this key for this associated data, or was altered. */
  open(sealed: string, associatedData: string): string {
    if (!sealed.startsWith(VERSION)) throw new Error('unknown sealed-secret format');
    const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed secret too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}
