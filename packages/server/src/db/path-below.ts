import { sql } from 'kysely';

/**
 * `column` holds a path strictly below the folder `dir` ("/a" → "/a/…"), on SQLite and PostgreSQL
 * alike (both count characters in substr). No LIKE: `%` and `_` are ordinary characters in names.
 */
export function pathBelow(column: string, dir: string) {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  return sql<boolean>`substr(${sql.ref(column)}, 1, ${[...prefix].length}) = ${prefix}`;
}
