/**
 * "Last used" stamps (keys, app passwords, sessions): written at most once per window, so a busy
 * credential costs one conditional UPDATE a minute and no read.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

export async function touchLastUsed(
  db: Kysely<Database>,
  target: {
    table: 'api_keys' | 'app_passwords' | 'sessions';
    column: 'last_used' | 'last_used_at';
    id: string;
  },
  at: { now: string; staleBefore: string },
  also: Record<string, string> = {},
): Promise<void> {
  const column = sql.ref(target.column);
  await sql`update ${sql.table(target.table)}
    set ${column} = ${at.now}${sql.join(
      Object.entries(also).map(([name, value]) => sql`, ${sql.ref(name)} = ${value}`),
      sql``,
    )}
    where id = ${target.id} and (${column} is null or ${column} < ${at.staleBefore})`.execute(db);
}
