/**
 * After a change on the server, lists that show it must be read again, by a request that starts after
 * the change. `invalidateQueries` alone is not enough: a query whose first answer is still on its way
 * (say a search typed just before a Delete) keeps that request instead of starting another, and shows
 * what the server read before the change. So answers on their way are dropped first, then every
 * matching query that a screen shows is fetched again.
 */
import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

export async function refreshAfterChange(
  client: QueryClient,
  ...filters: InvalidateQueryFilters[]
): Promise<void> {
  await Promise.all(filters.map((filter) => client.cancelQueries(filter)));
  await Promise.all(filters.map((filter) => client.invalidateQueries(filter)));
}
