/**
 * Dead properties and locks in the database, keyed by canonical virtual path, so every instance
 * sharing it sees the same. Paths "below" a folder are matched with pathBelow (no LIKE).
 */
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/database.ts';
import { pathBelow } from '../db/path-below.ts';
import type { Database, DavLocksTable, DavPropertiesTable } from '../db/schema.ts';

/** The PostgreSQL advisory lock that serialises taking WebDAV locks on every instance. */
const LOCK_TABLE_KEY = 0x0da7_10c4;

/** The lists `IN (…)` takes at once (well under SQLite's bound on parameters). */
const IN_CHUNK = 500;

/**
 * Dead properties one resource may hold, and their values' characters in all (a value is at most
 * 64 Ki characters: proppatch.ts). A PROPPATCH past them is refused (507 for its properties), so a
 * PROPFIND answer is bounded per resource whatever clients store.
 */
export const DAV_PROPS_PER_RESOURCE = 200;
export const DAV_PROP_CHARS_PER_RESOURCE = 256 * 1024;

/** Thrown by {@link DavRepository.patch} when the change would pass the resource's bounds. */
export class DavPropertiesFull extends Error {
  constructor() {
    super('dead properties full');
  }
}

export class DavRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Runs `work` (a conflict check and the insert that depends on it) as one step no other LOCK on any
   * instance can interleave with: a transaction that, on PostgreSQL, first takes a transaction-scoped
   * advisory lock; on SQLite (one instance, one connection) the transaction alone is exclusive.
   */
  async exclusively<T>(work: (repo: DavRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(${LOCK_TABLE_KEY})`.execute(trx);
      return work(new DavRepository(trx, this.dialect));
    });
  }

  // ---- dead properties ------------------------------------------------------------------------

  /** The properties of some paths (at most {@link IN_CHUNK} at once: callers read in batches). */
  async properties(paths: string[]): Promise<DavPropertiesTable[]> {
    if (paths.length === 0) return [];
    if (paths.length > IN_CHUNK) throw new Error(`properties of ${paths.length} paths at once`);
    return this.db.selectFrom('dav_properties').selectAll().where('path', 'in', paths).execute();
  }

  /** Of some paths, those that have dead properties, with their values' characters in all. */
  async propertySizes(paths: string[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    for (let i = 0; i < paths.length; i += IN_CHUNK) {
      const rows = await this.db
        .selectFrom('dav_properties')
        .select(['path', sql<number | string>`sum(length(value))`.as('chars')])
        .where('path', 'in', paths.slice(i, i + IN_CHUNK))
        .groupBy('path')
        .execute();
      for (const row of rows) sizes.set(row.path, Number(row.chars));
    }
    return sizes;
  }

  /**
   * Sets and removes properties of one path in one transaction (PROPPATCH is all or nothing);
   * throws {@link DavPropertiesFull}, changing nothing, when the path would hold more than its bounds.
   * On PostgreSQL an advisory lock on the path makes concurrent PROPPATCHes of it count one after
   * the other.
   */
  async patch(
    path: string,
    set: Array<{ ns: string; name: string; value: string }>,
    remove: Array<{ ns: string; name: string }>,
  ) {
    await this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(${LOCK_TABLE_KEY}, hashtext(${path}))`.execute(trx);
      for (const p of [...set, ...remove]) {
        await trx
          .deleteFrom('dav_properties')
          .where('path', '=', path)
          .where('ns', '=', p.ns)
          .where('name', '=', p.name)
          .execute();
      }
      for (const p of set)
        await trx
          .insertInto('dav_properties')
          .values({ path, ...p })
          .execute();
      if (set.length === 0) return;
      const held = await trx
        .selectFrom('dav_properties')
        .select([
          sql<number | string>`count(*)`.as('count'),
          sql<number | string | null>`sum(length(value))`.as('chars'),
        ])
        .where('path', '=', path)
        .executeTakeFirstOrThrow();
      if (
        Number(held.count) > DAV_PROPS_PER_RESOURCE ||
        Number(held.chars ?? 0) > DAV_PROP_CHARS_PER_RESOURCE
      )
        throw new DavPropertiesFull();
    });
  }

  /** Forgets the properties of a path and everything below it (DELETE, the source of MOVE). */
  async dropProperties(path: string): Promise<void> {
    await this.db
      .deleteFrom('dav_properties')
      .where((eb) => eb.or([eb('path', '=', path), pathBelow('path', path)]))
      .execute();
  }

  /**
   * Copies the properties of `from` (and with `below`, of everything in it) to the same places under
   * `to`, in the database itself (one INSERT … SELECT: however many there are, none passes through
   * this process).
   */
  async copyProperties(from: string, to: string, below = true): Promise<void> {
    await this.dropProperties(to);
    // substr counts characters (code points) on SQLite and PostgreSQL alike.
    const rest = [...from].length + 1;
    await this.db
      .insertInto('dav_properties')
      .columns(['path', 'ns', 'name', 'value'])
      .expression(
        this.db
          .selectFrom('dav_properties')
          .select([sql<string>`${to} || substr(path, ${rest})`.as('path'), 'ns', 'name', 'value'])
          .where((eb) =>
            below ? eb.or([eb('path', '=', from), pathBelow('path', from)]) : eb('path', '=', from),
          ),
      )
      .execute();
  }

  // ---- locks ----------------------------------------------------------------------------------

  /**
   * Live locks rooted at one of `roots`, or (with `below`) anywhere under `below`: the candidates
   * that may cover a path or lie inside a folder.
   */
  async locks(now: string, roots: string[], below?: string): Promise<DavLocksTable[]> {
    return this.db
      .selectFrom('dav_locks')
      .selectAll()
      .where('expires_at', '>', now)
      .where((eb) =>
        below === undefined
          ? eb('path', 'in', roots)
          : eb.or([eb('path', 'in', roots), pathBelow('path', below)]),
      )
      .execute();
  }

  async findLock(token: string, now: string): Promise<DavLocksTable | undefined> {
    return this.db
      .selectFrom('dav_locks')
      .selectAll()
      .where('token', '=', token)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async insertLock(row: DavLocksTable): Promise<void> {
    await this.db.insertInto('dav_locks').values(row).execute();
  }

  async refreshLock(token: string, timeoutSeconds: number, expiresAt: string): Promise<void> {
    await this.db
      .updateTable('dav_locks')
      .set({ timeout_seconds: timeoutSeconds, expires_at: expiresAt })
      .where('token', '=', token)
      .execute();
  }

  async deleteLock(token: string): Promise<void> {
    await this.db.deleteFrom('dav_locks').where('token', '=', token).execute();
  }

  /** Drops the locks on a path and below it (the resource went: DELETE, MOVE). */
  async dropLocks(path: string): Promise<void> {
    await this.db
      .deleteFrom('dav_locks')
      .where((eb) => eb.or([eb('path', '=', path), pathBelow('path', path)]))
      .execute();
  }

  async purgeExpiredLocks(now: string): Promise<number> {
    const result = await this.db.deleteFrom('dav_locks').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
