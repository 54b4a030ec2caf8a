/**
 * One signed-in FTP control connection and the commands the driver builds on
 * (docs/architecture.md, "Drivers"). Every path here is the server's own absolute path; the driver
 * makes them from its confined user paths. Folders are entered with CWD and checked against the
 * folder the server says it reached (in CWD's reply, else PWD): a server that reports where CWD
 * really led (pure-ftpd does) shows a link on the way as a path other than the one asked for, which
 * is refused.
 */
import { hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Client, type FileInfo, FileType, parseList } from 'basic-ftp';
import { StorageError } from '../../driver.ts';
import { ftpCode, ftpStorageError } from './ftp-errors.ts';
import { retrieve, type Retrieval } from './ftp-transfer.ts';
import { FTP_TUNING } from './ftp-tuning.ts';

export interface FtpConnectOptions {
  host: string;
  port: number;
  username: string;
  password: string;
  /** The storage's folder on the server; it must exist. */
  root: string;
  /** `explicit`: AUTH TLS before signing in, data connections protected too. */
  tls: 'none' | 'explicit';
  /** Accept a certificate that does not verify (a self-signed one). */
  tlsInsecureSkipVerify: boolean;
  /** `list`: never MLSD/MLST, even when the server offers them (LIST parsing, as on old servers). */
  listing: 'auto' | 'list';
}

/** A directory entry as the server describes it. */
export interface RemoteEntry {
  name: string;
  kind: 'file' | 'dir' | 'link' | 'other';
  size: number;
  modified: Date | null;
  /** Changes with every write: the size, the modification time, and the file's identity where the server gives one. */
  version: string;
}

function toRemote(info: FileInfo, name: string): RemoteEntry {
  const kind =
    info.type === FileType.File
      ? 'file'
      : info.type === FileType.Directory
        ? 'dir'
        : info.type === FileType.SymbolicLink
          ? 'link'
          : 'other';
  const modified = info.modifiedAt && !Number.isNaN(info.modifiedAt.getTime()) ? info.modifiedAt : null;
  const facts = `${info.uniqueID ?? ''}\u0000${info.size}\u0000${info.rawModifiedAt}`;
  const version = hash('sha256', facts, 'base64url').slice(0, 22);
  return { name, kind, size: kind === 'file' ? info.size : 0, modified, version };
}

const parentOfRemote = (full: string): string => full.slice(0, full.lastIndexOf('/')) || '/';
const nameOfRemote = (full: string): string => full.slice(full.lastIndexOf('/') + 1);

export class FtpSession {
  lastUsed = Date.now();

  private constructor(
    readonly client: Client,
    /** The root folder as the server names it after CWD (the configured root, links resolved). */
    readonly home: string,
    /** The server offers MLST/MLSD (and the config lets us use them). */
    readonly mlst: boolean,
  ) {}

  /** Connects, signs in, enters the root folder. Each failure is a StorageError with its reason. */
  static async open(options: FtpConnectOptions): Promise<FtpSession> {
    const client = new Client(FTP_TUNING.timeoutMs);
    const where = `${options.host}:${options.port}`;
    try {
      await client.connect(options.host, options.port).catch((error: unknown) => {
        throw ftpStorageError(error, 'connect', where);
      });
      if (options.tls === 'explicit') {
        await client
          .useTLS({ host: options.host, rejectUnauthorized: !options.tlsInsecureSkipVerify })
          .catch((error: unknown) => {
            throw new StorageError('UNAVAILABLE', `connect ${where}: TLS failed`, {
              cause: error,
              reason: 'tls',
            });
          });
      }
      await client.sendIgnoringError('OPTS UTF8 ON');
      await client.login(options.username, options.password).catch((error: unknown) => {
        if (ftpCode(error) !== undefined) {
          throw new StorageError('FORBIDDEN', `sign in to ${where}: refused`, {
            cause: error,
            reason: 'auth',
          });
        }
        throw ftpStorageError(error, 'sign in', where);
      });
      await client.useDefaultSettings();
      await client.cd(options.root).catch((error: unknown) => {
        if (ftpCode(error) === undefined) throw ftpStorageError(error, 'connect', where);
        throw new StorageError('UNAVAILABLE', `the root folder ${options.root} is missing`, {
          cause: error,
          reason: 'folder_missing',
        });
      });
      const session = new FtpSession(client, '/', false);
      const home = await session.pwd();
      const mlst = options.listing === 'auto' && (await client.features()).has('MLST');
      if (!mlst) client.availableListCommands = ['LIST -a', 'LIST'];
      return new FtpSession(client, home, mlst);
    } catch (error) {
      client.close();
      throw ftpStorageError(error, 'connect', where);
    }
  }

  get closed(): boolean {
    return this.client.closed;
  }

  /** The server path of a normalised driver (or internal) path. */
  remote(path: string): string {
    if (path === '/') return this.home;
    return this.home === '/' ? path : this.home + path;
  }

  /** The working folder, as PWD reports it (RFC 959 doubles a quote inside the name). */
  async pwd(): Promise<string> {
    const { message } = await this.client.send('PWD');
    const match = /"((?:[^"]|"")*)"/.exec(message);
    if (!match) throw new StorageError('UNAVAILABLE', 'the server answered PWD oddly');
    return match[1]!.replaceAll('""', '"');
  }

  /**
   * CWD into `full` and check the server landed there (no link on the way): by the CWD reply where
   * it names the folder it reached (pure-ftpd: "Current directory is /a/b"), else by PWD.
   */
  async enter(full: string): Promise<void> {
    const { message } = await this.client.send(`CWD ${full}`);
    if (message.endsWith(` is ${full}`)) return;
    const landed = await this.pwd();
    if (landed !== full) {
      throw new StorageError('FORBIDDEN', 'a link on the server is never followed');
    }
  }

  /** The entries of the folder `full` (entered and checked first), `.`/`..` left out. */
  async entries(full: string): Promise<RemoteEntry[]> {
    await this.enter(full);
    const infos = await this.client.list('');
    return infos.filter((i) => i.name !== '.' && i.name !== '..').map((i) => toRemote(i, i.name));
  }

  /** What is at `full` (its folder not checked here), null when nothing is. */
  async facts(full: string): Promise<RemoteEntry | null> {
    const name = nameOfRemote(full);
    if (full === this.home) return { name: '', kind: 'dir', size: 0, modified: null, version: '' };
    if (!this.mlst) {
      try {
        return (await this.entries(parentOfRemote(full))).find((e) => e.name === name) ?? null;
      } catch (error) {
        if (ftpCode(error) === 550) return null;
        throw error;
      }
    }
    let message: string;
    try {
      ({ message } = await this.client.send(`MLST ${full}`));
    } catch (error) {
      if (ftpCode(error) === 550) return null;
      throw error;
    }
    // " <facts> <path>": the facts go to basic-ftp's MLSD parser with the bare name (it drops paths).
    const line = message.split(/\r?\n/).find((l) => l.startsWith(' '));
    const facts = line?.slice(1, line.indexOf(' ', 1));
    const info = facts ? parseList(`${facts} ${name}`)[0] : undefined;
    if (!info) throw new StorageError('UNAVAILABLE', 'the server answered MLST oddly');
    return toRemote(info, name);
  }

  /** Creates `full` and its missing parents below the root; NOT_A_DIRECTORY when a file is in the way. */
  async mkdirs(full: string): Promise<void> {
    try {
      await this.enter(full);
      return;
    } catch (error) {
      if (ftpCode(error) === undefined) throw error;
    }
    let at = this.home === '/' ? '' : this.home;
    for (const segment of full.slice(at.length + 1).split('/')) {
      at += `/${segment}`;
      try {
        await this.client.send(`CWD ${at}`);
        continue;
      } catch (error) {
        if (ftpCode(error) === undefined) throw error;
      }
      await this.client.send(`MKD ${at}`).catch(async (error: unknown) => {
        if (ftpCode(error) === undefined) throw error;
        const there = await this.facts(at);
        if (there && there.kind !== 'dir') throw new StorageError('NOT_A_DIRECTORY', 'a file is in the way');
        if (!there) throw error;
      });
    }
    await this.enter(full);
  }

  /**
   * Removes the file or folder `full` with everything below it. Links inside are removed as links
   * (DELE), never entered.
   */
  async removeTree(full: string, known?: RemoteEntry): Promise<void> {
    const entry = known ?? (await this.facts(full));
    if (!entry) return;
    if (entry.kind !== 'dir') {
      await this.client.send(`DELE ${full}`);
      return;
    }
    for (const child of await this.entries(full)) {
      await this.removeTree(`${full}/${child.name}`, child);
    }
    await this.client.send(`RMD ${full}`);
  }

  async store(full: string, source: Readable): Promise<void> {
    await this.client.uploadFrom(source, full);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.client.send(`RNFR ${from}`);
    await this.client.send(`RNTO ${to}`);
  }

  retrieve(full: string, start: number, length: number | null, label: string): Promise<Retrieval> {
    return retrieve(this.client, full, start, length, label);
  }

  /** NOOP: whether a connection idle for a while still answers. */
  async alive(): Promise<boolean> {
    try {
      await this.client.send('NOOP');
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.client.close();
  }
}
