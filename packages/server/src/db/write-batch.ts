/**
 * Group commit for SQLite. Every commit costs a write to the WAL (about 100 µs here, far more than
 * the statement), so the hottest single-statement writes — counting a view — are queued and run
 * together, on a connection of their own, in one transaction per turn of the event loop. Each
 * caller's promise settles only after that transaction committed, so an answer never reports a
 * view the database does not have; the statements run one after another, so the one-statement
 * view count stays exactly-N under any concurrency.
 *
 * The connection never waits for a lock inside SQLite (busy_timeout 0): the app's main connection
 * can hold the write lock across an `await` (a Kysely transaction), and a synchronous wait here
 * would stop the very event loop that transaction needs to finish. A busy batch is retried shortly.
 */
import SQLite from 'better-sqlite3';

const RETRY_MS = 2;
const GIVE_UP_MS = 5000;

interface Queued {
  source: string;
  params: readonly unknown[];
  resolve(row: unknown): void;
  reject(error: unknown): void;
}

const isBusy = (error: unknown): boolean =>
  (error as { code?: string } | null)?.code?.startsWith('SQLITE_BUSY') ?? false;

export class SqliteWriteBatch {
  private connection?: SQLite.Database;
  private readonly statements = new Map<string, SQLite.Statement>();
  private queue: Queued[] = [];
  private scheduled = false;
  private busySince = 0;

  constructor(private readonly file: string) {}

  /** Runs a statement that returns at most one row (e.g. `UPDATE … RETURNING`) in the next batch. */
  get<T>(source: string, params: readonly unknown[]): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve, reject) => {
      this.queue.push({ source, params, resolve: resolve as (row: unknown) => void, reject });
      this.schedule(0);
    });
  }

  close(): void {
    this.flush();
    this.connection?.close();
    this.connection = undefined;
    this.statements.clear();
  }

  private schedule(delayMs: number): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.flush();
    };
    if (delayMs > 0) setTimeout(run, delayMs);
    else setImmediate(run);
  }

  private open(): SQLite.Database {
    if (!this.connection) {
      const connection = new SQLite(this.file);
      connection.pragma('busy_timeout = 0');
      connection.pragma('synchronous = NORMAL');
      connection.pragma('foreign_keys = ON');
      this.connection = connection;
    }
    return this.connection;
  }

  private statement(source: string): SQLite.Statement {
    let statement = this.statements.get(source);
    if (!statement) {
      statement = this.open().prepare(source);
      this.statements.set(source, statement);
    }
    return statement;
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const outcomes: ({ row: unknown } | { error: unknown })[] = [];
    try {
      this.open()
        .transaction(() => {
          outcomes.length = 0;
          for (const item of batch) {
            try {
              outcomes.push({ row: this.statement(item.source).get(...item.params) });
            } catch (error) {
              // A failed statement undoes only itself; a busy database undoes the batch (retried).
              if (isBusy(error)) throw error;
              outcomes.push({ error });
            }
          }
        })
        .immediate();
    } catch (error) {
      if (isBusy(error)) {
        const now = Date.now();
        this.busySince ||= now;
        if (now - this.busySince < GIVE_UP_MS) {
          this.queue = batch.concat(this.queue);
          this.schedule(RETRY_MS);
          return;
        }
      }
      this.busySince = 0;
      for (const item of batch) item.reject(error);
      return;
    }
    this.busySince = 0;
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ('error' in outcome) item.reject(outcome.error);
      else item.resolve(outcome.row);
    });
  }
}
