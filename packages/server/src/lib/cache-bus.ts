/**
 * Tells the other instances on one PostgreSQL database what to forget from their caches
 * (`LISTEN`/`NOTIFY` on one channel), so a change made through one instance is seen through every
 * other within a second.
 *
 * - A note names what changed (a folder's listing, a mount's or storage config's listings, a
 *   storage config's driver; or work to stop, lib/stop-elsewhere.ts) and the instance that sent it: the sender has already forgotten it
 *   itself and ignores its own notes. Notes are gathered for one turn of the event loop and sent as
 *   few `pg_notify` calls (payloads stay under PostgreSQL's 8000 bytes; a note too long for one
 *   becomes the coarser "all listings of this mount").
 * - Each instance listens on a connection of its own (never a pool connection), reconnecting with
 *   backoff when it breaks. While it is down the instance may miss notes: its state is `degraded`
 *   (GET /api/health says so), caches keep entries at most {@link DEGRADED_TTL_MS}, and once it
 *   listens again everything cached is forgotten, since notes may have been missed meanwhile.
 * - On SQLite there is one instance: nothing to tell anyone, the state is `local`.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { formatTag, THIS_PROCESS } from './process-tag.ts';

export const CACHE_CHANNEL = 'cubby_cache';
/** How long a cached entry may live while notes may be missed (the listener is down). */
export const DEGRADED_TTL_MS = 5_000;
/** `pg_notify` takes payloads shorter than 8000 bytes. */
const MAX_PAYLOAD_BYTES = 7_900;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;

export type CacheNote =
  /**
   * The listing of a folder of one mount, with `below` every listing under it, with `above` those of
   * the folders it lies in (an instance that does not know `above` still forgets the folder itself).
   */
  | { kind: 'listing'; mount: string; path: string; below: boolean; above?: boolean }
  /** Every listing of one mount, of the mounts on one storage config, or every listing at all. */
  | { kind: 'listings'; mount?: string; config?: string }
  /** A storage config changed or was deleted: its driver is built again. */
  | { kind: 'storage-config'; id: string }
  /** The folder rules changed (vfs/folder-rules.ts): they are read again. */
  | { kind: 'folder-rules' }
  /** Cancel the background work `id` wherever it runs (lib/stop-elsewhere.ts): not a cache, but the same wire. */
  | { kind: 'stop'; id: string };

/** `local`: one instance (SQLite); `ok`: listening; `degraded`: notes may be missed. */
export type CacheState = 'local' | 'ok' | 'degraded';

export interface CacheListener {
  /** Another instance's note. */
  note(note: CacheNote): void;
  /** Notes may have been missed: forget everything cached. */
  lost(): void;
}

export interface CacheBus {
  /** This instance, as named in its notes. */
  readonly instance: string;
  state(): CacheState;
  /** Tells the other instances (this one has applied the note itself). */
  publish(note: CacheNote): void;
  subscribe(listener: CacheListener): void;
  /** Resolves once the notes published so far have been sent. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** An instance id: this process's tag and a few random bytes (two apps in one test process differ). */
export function newInstanceId(): string {
  return `${formatTag(THIS_PROCESS)}.${randomBytes(2).toString('hex')}`;
}

export function createCacheBus(
  db: Db,
  instance: string,
  logger: Pick<Logger, 'info' | 'warn'>,
  options: { retryMinMs?: number } = {},
): CacheBus {
  if (db.dialect === 'postgres' && db.connectionString) {
    return new PgCacheBus(db, db.connectionString, instance, logger, options.retryMinMs ?? RETRY_MIN_MS);
  }
  return new LocalCacheBus(instance);
}

/** One instance: nobody to tell. */
export class LocalCacheBus implements CacheBus {
  constructor(readonly instance: string) {}
  state(): CacheState {
    return 'local';
  }
  publish(): void {}
  subscribe(): void {}
  flush(): Promise<void> {
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

export class PgCacheBus implements CacheBus {
  private readonly listeners: CacheListener[] = [];
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private queue: CacheNote[] = [];
  private sending: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly connectionString: string,
    readonly instance: string,
    private readonly logger: Pick<Logger, 'info' | 'warn'>,
    private readonly retryMinMs: number,
  ) {
    this.retryMs = retryMinMs;
    void this.connect();
  }

  state(): CacheState {
    return this.listening ? 'ok' : 'degraded';
  }

  subscribe(listener: CacheListener): void {
    this.listeners.push(listener);
  }

  publish(note: CacheNote): void {
    this.queue.push(note);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  flush(): Promise<void> {
    const notes = this.queue;
    this.queue = [];
    if (notes.length > 0) {
      this.sending = this.sending.then(() => this.send(notes));
    }
    return this.sending;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    this.listening = false;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Sends notes in as few payloads as fit; a failure is logged (the others' TTLs bound the harm). */
  private async send(notes: CacheNote[]): Promise<void> {
    const payloads: string[] = [];
    let batch: CacheNote[] = [];
    const payload = (n: CacheNote[]) => JSON.stringify({ i: this.instance, n });
    for (let note of notes) {
      if (Buffer.byteLength(payload([note])) > MAX_PAYLOAD_BYTES) {
        note = note.kind === 'listing' ? { kind: 'listings', mount: note.mount } : { kind: 'listings' };
      }
      if (batch.length > 0 && Buffer.byteLength(payload([...batch, note])) > MAX_PAYLOAD_BYTES) {
        payloads.push(payload(batch));
        batch = [];
      }
      batch.push(note);
    }
    if (batch.length > 0) payloads.push(payload(batch));
    try {
      for (const text of payloads)
        await sql`select pg_notify(${CACHE_CHANNEL}, ${text})`.execute(this.db.kysely);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not tell the other instances what to forget from their caches');
    }
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: `cubby cache ${this.instance}`.slice(0, 63),
      keepAlive: true,
    });
    this.client = client;
    const lost = (error?: Error) => this.lost(client, error);
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === CACHE_CHANNEL && message.payload) this.receive(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (this.client !== client) return;
    const wasDown = this.retryMs > this.retryMinMs;
    this.listening = true;
    this.retryMs = this.retryMinMs;
    if (wasDown) this.logger.info('listening for cache notes again; caches are cleared');
    // Whatever was cached before now may have missed notes.
    for (const listener of this.listeners) listener.lost();
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.logger.warn(
      { err: error, retryMs: this.retryMs },
      'cache note listener lost: caches fall back to a short lifetime until it is back',
    );
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
  }

  private receive(payload: string): void {
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (!isMessage(message) || message.i === this.instance) return;
    for (const note of message.n) {
      if (!isNote(note)) continue;
      for (const listener of this.listeners) listener.note(note);
    }
  }
}

const isString = (value: unknown) => typeof value === 'string';
const isOptionalString = (value: unknown) => value === undefined || typeof value === 'string';

function isMessage(value: unknown): value is { i: string; n: unknown[] } {
  const message = value as { i?: unknown; n?: unknown } | null;
  return typeof message === 'object' && message !== null && isString(message.i) && Array.isArray(message.n);
}

/** Anyone who may connect to the database may notify: a note is checked before it is used. */
function isNote(value: unknown): value is CacheNote {
  const note = value as Record<string, unknown> | null;
  if (typeof note !== 'object' || note === null) return false;
  switch (note.kind) {
    case 'listing':
      return (
        isString(note.mount) &&
        isString(note.path) &&
        typeof note.below === 'boolean' &&
        (note.above === undefined || typeof note.above === 'boolean')
      );
    case 'listings':
      return isOptionalString(note.mount) && isOptionalString(note.config);
    case 'storage-config':
    case 'stop':
      return isString(note.id);
    case 'folder-rules':
      return true;
    default:
      return false;
  }
}
