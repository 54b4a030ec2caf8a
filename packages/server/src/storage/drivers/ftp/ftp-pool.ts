/**
 * A small pool of FTP control connections (docs/architecture.md, "Drivers"): FTP runs one command
 * at a time per connection, so a driver keeps a few, connects them lazily, hands each to one caller
 * at a time, and replaces one that broke. A caller that needs two at once (a copy reads on one and
 * writes on the other) takes both in one step, so two such callers never hold one each and wait
 * for each other forever.
 */
import { StorageError } from '../../driver.ts';
import type { FtpSession } from './ftp-session.ts';
import { FTP_TUNING } from './ftp-tuning.ts';

interface Waiter {
  count: number;
  grant: (sessions: FtpSession[]) => void;
  fail: (error: unknown) => void;
}

export class FtpPool {
  private readonly idle: FtpSession[] = [];
  private busy = 0;
  private connecting = 0;
  private readonly waiters: Waiter[] = [];
  private closed = false;

  constructor(
    private readonly connect: () => Promise<FtpSession>,
    private readonly max: number = FTP_TUNING.maxClients,
  ) {}

  /** Runs `use` on `count` connections of its own; a connection left broken is replaced. */
  async use<T>(count: number, use: (...sessions: FtpSession[]) => Promise<T>): Promise<T> {
    const sessions = await this.acquire(count);
    try {
      return await use(...sessions);
    } finally {
      for (const session of sessions) this.release(session);
    }
  }

  /** `count` connections of the pool's at most, waiting for free ones in turn. */
  async acquire(count: number): Promise<FtpSession[]> {
    if (this.closed) throw new StorageError('UNAVAILABLE', 'the FTP driver is closed');
    if (count > this.max) {
      throw new StorageError(
        'UNAVAILABLE',
        `this needs ${count} FTP connections; the driver keeps ${this.max}`,
      );
    }
    const sessions = await new Promise<FtpSession[]>((grant, fail) => {
      const waiter: Waiter = { count, grant, fail };
      const timer = setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        fail(new StorageError('UNAVAILABLE', 'every FTP connection stayed busy', { reason: 'unreachable' }));
      }, FTP_TUNING.acquireTimeoutMs);
      waiter.grant = (s) => {
        clearTimeout(timer);
        grant(s);
      };
      waiter.fail = (e) => {
        clearTimeout(timer);
        fail(e);
      };
      this.waiters.push(waiter);
      this.dispatch();
    });
    return sessions;
  }

  /** Gives a connection back: kept when it is still usable, dropped otherwise. */
  release(session: FtpSession): void {
    this.busy--;
    if (!session.closed && !this.closed) {
      session.lastUsed = Date.now();
      this.idle.push(session);
    } else {
      session.close();
    }
    this.dispatch();
  }

  /** Hands connections to the first waiter when enough are free or can be made (FIFO). */
  private dispatch(): void {
    const waiter = this.waiters[0];
    if (!waiter) return;
    const available = this.idle.length + (this.max - this.busy - this.idle.length - this.connecting);
    if (available < waiter.count) return;
    this.waiters.shift();
    const reserved = this.idle.splice(0, Math.min(waiter.count, this.idle.length));
    const toMake = waiter.count - reserved.length;
    this.busy += reserved.length;
    this.connecting += toMake;
    void this.ready(reserved, toMake).then(
      (sessions) => {
        this.connecting -= toMake;
        this.busy += toMake;
        waiter.grant(sessions);
      },
      (error: unknown) => {
        this.connecting -= toMake;
        for (const s of reserved) this.release(s);
        waiter.fail(error);
        this.dispatch();
      },
    );
    this.dispatch();
  }

  /** The reserved idle connections (checked when idle long, replaced when dead) plus `toMake` new ones. */
  private async ready(reserved: FtpSession[], toMake: number): Promise<FtpSession[]> {
    const made: FtpSession[] = [];
    try {
      const checked = await Promise.all(
        reserved.map(async (session) => {
          if (Date.now() - session.lastUsed < FTP_TUNING.idleCheckMs && !session.closed) return session;
          if (!session.closed && (await session.alive())) return session;
          session.close();
          const fresh = await this.connect();
          made.push(fresh);
          return fresh;
        }),
      );
      for (let i = 0; i < toMake; i++) made.push(await this.connect());
      return [...checked, ...made.slice(made.length - toMake)];
    } catch (error) {
      for (const session of made) session.close();
      throw error;
    }
  }

  /** Closes every connection; calls waiting for one fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) {
      waiter.fail(new StorageError('UNAVAILABLE', 'the FTP driver is closed'));
    }
    for (const session of this.idle.splice(0)) session.close();
  }
}
