/**
 * The SFTP driver's connections: a few SFTP sessions (one SSH connection each), opened when first
 * needed and shared (SFTP answers requests in any order, so many run on one session at once). A
 * call takes the least busy session, or opens another while fewer than `maxSessions` are open. A
 * connection that drops is forgotten at once, so the next call opens a new one; one unused for
 * `idleMs` is closed. Every connection checks the server's host key (pinned, or recorded when none
 * is) and that the root folder exists.
 */
import { createHash } from 'node:crypto';
import { Client, type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { StorageError } from '../../driver.ts';
import { isStatus, mapConnectError, mapSftpError, SFTP_STATUS } from './sftp-errors.ts';
import { markClosed } from './sftp-fs.ts';
import type { SftpTuning } from './sftp-tuning.ts';

/** A host key's fingerprint as OpenSSH prints it: `SHA256:` and the unpadded base64 of its SHA-256. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** A fingerprint as a person may paste it (spaces, base64 padding, no `SHA256:`) in OpenSSH's form. */
export function normalizeFingerprint(fingerprint: string): string {
  const bare = fingerprint.trim().replace(/=+$/, '');
  return bare.startsWith('SHA256:') ? bare : `SHA256:${bare}`;
}

export interface SftpSession {
  readonly sftp: SFTPWrapper;
  /** The root folder as the server resolved it (no link left in it): every remote path starts here. */
  readonly root: string;
}

export interface SftpConnection {
  host: string;
  port: number;
  username: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
  root: string;
  hostKeyFingerprint: string | null;
}

interface Pooled extends SftpSession {
  client: Client;
  users: number;
  closed: boolean;
  idle?: NodeJS.Timeout;
}

export interface SessionLease {
  session: SftpSession;
  /** Gives the session back; calling it again does nothing. */
  release(): void;
}

export class SftpPool {
  private readonly sessions = new Set<Pooled>();
  private readonly opening = new Set<Promise<Pooled>>();
  private seenHostKey: string | undefined;
  private closed = false;

  constructor(
    private readonly connection: SftpConnection,
    private readonly tuning: SftpTuning,
  ) {}

  /** The host key the server showed on the last connection attempt. */
  hostKey(): string | undefined {
    return this.seenHostKey;
  }

  /** Runs `work` on a session. */
  async use<T>(work: (session: SftpSession) => Promise<T>): Promise<T> {
    const lease = await this.acquire();
    try {
      return await work(lease.session);
    } finally {
      lease.release();
    }
  }

  /** A session held until `release()` (a download holds one until its stream ends). */
  async acquire(): Promise<SessionLease> {
    const session = await this.pick();
    session.users++;
    clearTimeout(session.idle);
    let released = false;
    return {
      session,
      release: () => {
        if (released) return;
        released = true;
        session.users--;
        if (session.users === 0 && !session.closed) {
          session.idle = setTimeout(() => void this.end(session), this.tuning.idleMs);
          session.idle.unref();
        }
      },
    };
  }

  private async pick(): Promise<Pooled> {
    for (;;) {
      if (this.closed) throw new StorageError('UNAVAILABLE', 'the SFTP storage is closed');
      let best: Pooled | undefined;
      for (const s of this.sessions) if (!s.closed && (!best || s.users < best.users)) best = s;
      if (best && (best.users === 0 || this.sessions.size + this.opening.size >= this.tuning.maxSessions)) {
        return best;
      }
      if (this.sessions.size + this.opening.size < this.tuning.maxSessions) {
        const opening = this.open();
        this.opening.add(opening);
        try {
          const session = await opening;
          this.sessions.add(session);
          return session;
        } finally {
          this.opening.delete(opening);
        }
      }
      // Every place is being opened: wait for one, then choose again.
      await Promise.race(this.opening);
    }
  }

  private open(): Promise<Pooled> {
    const { host, port, username, password, privateKey, passphrase, root } = this.connection;
    const pinned = this.connection.hostKeyFingerprint;
    const expected = pinned ? normalizeFingerprint(pinned) : undefined;
    const server = `${host}:${port}`;
    return new Promise<Pooled>((resolve, reject) => {
      const client = new Client();
      let mismatch: string | undefined;
      let settled = false;
      // ssh2's readyTimeout ends at sign-in; this one also covers opening SFTP and finding the root.
      const timer = setTimeout(
        () => fail(new Error('timed out opening the SFTP session')),
        2 * this.tuning.readyTimeoutMs,
      );
      const fail = (error: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        client.destroy();
        reject(mapConnectError(error, server, mismatch));
      };
      client.on('error', fail);
      client.once('close', () => fail(new Error('connection closed while signing in')));
      client.once('ready', () => {
        // Requests are small and answered one by one: Nagle's delay would hold each for 40 ms.
        client.setNoDelay(true);
        client.sftp((error, sftp) => {
          if (error) return fail(error);
          resolveRoot(sftp, root, server).then((resolved) => {
            clearTimeout(timer);
            if (settled) return;
            settled = true;
            const session: Pooled = { sftp, root: resolved, client, users: 0, closed: false };
            const forget = () => {
              markClosed(sftp);
              session.closed = true;
              clearTimeout(session.idle);
              this.sessions.delete(session);
            };
            // From now on a failure is the connection dropping: forget it, the next call reconnects.
            client.removeListener('error', fail);
            client.on('error', forget);
            client.on('end', forget);
            client.on('close', forget);
            sftp.on('close', () => {
              forget();
              client.end();
            });
            resolve(session);
          }, fail);
        });
      });
      const config: ConnectConfig = {
        host,
        port,
        username,
        readyTimeout: this.tuning.readyTimeoutMs,
        keepaliveInterval: this.tuning.keepaliveMs,
        keepaliveCountMax: 3,
        hostVerifier: (key: Buffer) => {
          const seen = hostKeyFingerprint(key);
          this.seenHostKey = seen;
          if (expected && seen !== expected) {
            mismatch = seen;
            return false;
          }
          return true;
        },
        ...(password ? { password } : {}),
        ...(privateKey ? { privateKey } : {}),
        ...(passphrase ? { passphrase } : {}),
      };
      try {
        client.connect(config);
      } catch (error) {
        // ssh2 reads the key before connecting: one it cannot parse or open is refused here.
        clearTimeout(timer);
        settled = true;
        reject(
          new StorageError(
            'FORBIDDEN',
            `the private key for ${server} cannot be read (format or passphrase)`,
            {
              cause: error,
              reason: 'auth',
            },
          ),
        );
      }
    });
  }

  private end(session: Pooled): Promise<void> {
    markClosed(session.sftp);
    session.closed = true;
    clearTimeout(session.idle);
    this.sessions.delete(session);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        session.client.destroy();
        resolve();
      }, 1000);
      session.client.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      session.client.end();
    });
  }

  /** Ends every session; calls after this fail with UNAVAILABLE. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.opening);
    await Promise.all([...this.sessions].map((s) => this.end(s)));
  }
}

/** The root as the server resolves it; UNAVAILABLE 'folder_missing' when it is no folder. */
async function resolveRoot(sftp: SFTPWrapper, root: string, server: string): Promise<string> {
  const missing = (cause?: unknown) =>
    new StorageError('UNAVAILABLE', `the root folder does not exist on ${server}`, {
      cause,
      reason: 'folder_missing',
    });
  try {
    const resolved = await new Promise<string>((resolve, reject) =>
      sftp.realpath(root, (error, path) => (error ? reject(error) : resolve(path))),
    );
    const stats = await new Promise<{ isDirectory(): boolean }>((resolve, reject) =>
      sftp.stat(resolved, (error, stats) => (error ? reject(error) : resolve(stats))),
    );
    if (!stats.isDirectory()) throw missing();
    return resolved;
  } catch (error) {
    if (isStatus(error, SFTP_STATUS.NO_SUCH_FILE)) throw missing(error);
    return mapSftpError(error, 'open root', root);
  }
}
