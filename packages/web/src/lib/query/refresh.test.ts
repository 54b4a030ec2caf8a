/**
 * A list read before a change must not stay on screen after it (lib/query/refresh.ts): a first
 * fetch still on its way when a mutation settles is dropped and read again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { refreshAfterChange } from './refresh.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

async function listAfterChange(
  refresh: (client: QueryClient) => Promise<void>,
): Promise<string[] | undefined> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const answers = [deferred<string[]>(), deferred<string[]>()];
  let calls = 0;
  const observer = new QueryObserver<string[]>(client, {
    queryKey: ['pastes', 'managed', { search: 'clear' }],
    queryFn: () => answers[calls++]!.promise,
  });
  const unsubscribe = observer.subscribe(() => {});
  try {
    // The search's first answer is on its way (read before the delete) when the delete settles.
    await new Promise((tick) => setTimeout(tick, 0));
    assert.equal(calls, 1);
    const refreshed = refresh(client);
    answers[0]!.resolve(['old', 'kept']);
    answers[1]?.resolve(['kept']);
    await refreshed;
    await new Promise((tick) => setTimeout(tick, 0));
    return client.getQueryData<string[]>(['pastes', 'managed', { search: 'clear' }]);
  } finally {
    unsubscribe();
    client.clear();
  }
}

test('a first answer on its way when the change settles is replaced by one read after it', async () => {
  const shown = await listAfterChange((client) =>
    refreshAfterChange(client, { queryKey: ['pastes', 'managed'] }),
  );
  assert.deepEqual(shown, ['kept']);
});

test('invalidating alone keeps the answer read before the change (why refreshAfterChange exists)', async () => {
  const shown = await listAfterChange((client) =>
    client.invalidateQueries({ queryKey: ['pastes', 'managed'] }),
  );
  assert.deepEqual(shown, ['old', 'kept']);
});
