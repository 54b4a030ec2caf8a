/**
 * A small software WebAuthn authenticator for server tests (docs/accounts.md "Passkeys"): one ES256
 * key from node:crypto, attestation "none", a discoverable credential. It answers the options the
 * server gives as a browser would (`startRegistration` / `startAuthentication`'s JSON), at the
 * origin it is told — so a test can also answer from the wrong origin or for the wrong RP ID, or
 * with a sign counter that went backwards.
 */
import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface Answer {
  /** Defaults to the authenticator's origin. */
  origin?: string;
  /** Defaults to the RP ID the options name. */
  rpId?: string;
  /** Whether the person was verified (a PIN, a fingerprint); default true. */
  userVerified?: boolean;
  /** Sets the sign counter this answer carries (default: one more than the last). */
  counter?: number;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Uint8Array;
  private counter = 0;
  private userHandle = '';

  constructor(readonly origin = 'http://localhost') {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The answer to registration options (`navigator.credentials.create`). */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, answer: Answer = {}) {
    this.userHandle = options.user.id;
    const clientData = this.clientData('webauthn.create', options.challenge, answer);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authHead(answer.rpId ?? options.rp.id!, FLAG_AT | this.flags(answer), this.counter),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      this.cosePublicKey,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', authData],
      ]),
    );
    return this.credential({
      clientDataJSON: b64url(clientData),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    });
  }

  /** The answer to sign-in options (`navigator.credentials.get`), signed with the key. */
  authenticate(options: { challenge: string; rpId?: string }, answer: Answer = {}) {
    this.counter = answer.counter ?? this.counter + 1;
    const clientData = this.clientData('webauthn.get', options.challenge, answer);
    const authData = this.authHead(answer.rpId ?? options.rpId!, this.flags(answer), this.counter);
    const signature = createSign('sha256')
      .update(Buffer.concat([authData, sha256(clientData)]))
      .sign(this.privateKey);
    return this.credential({
      clientDataJSON: b64url(clientData),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: this.userHandle,
    });
  }

  /** A `PublicKeyCredential` as JSON, as the browser library sends it. */
  private credential<R>(response: R) {
    return { id: this.id, rawId: this.id, type: 'public-key', response, clientExtensionResults: {} };
  }

  private flags(answer: Answer): number {
    return FLAG_UP | (answer.userVerified === false ? 0 : FLAG_UV);
  }

  private clientData(type: string, challenge: string, answer: Answer): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: answer.origin ?? this.origin, crossOrigin: false }),
    );
  }

  private authHead(rpId: string, flags: number, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }
}
