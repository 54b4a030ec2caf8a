/**
 * One storage-error table for every door (vfs/storage-answers.ts): the fs API (and WebDAV through
 * it) and file downloads answer each driver error code with the same status and error code — before,
 * a folder-not-empty was 409 in one and 400 in another, a body over its limit 507 "storage full" in
 * the fs API and 413 on local storage's signed URLs, and a storage refusing access 403 or 503. A
 * storage that refuses Cubby's own sign-in is unavailable (503) to everyone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../src/errors/app-error.ts';
import { STORAGE_STATUS } from '../src/vfs/storage-answers.ts';
import { STORAGE_ERROR_CODES, StorageError } from '../src/storage/driver.ts';
import { objectCall } from '../src/vfs/serve-object.ts';
import { fsStorageFailure } from '../src/vfs/vfs.ts';

const answerOf = async (door: (error: StorageError) => Promise<unknown>, error: StorageError) => {
  const answer = await door(error);
  assert.ok(answer instanceof AppError, `${error.code}: ${String(answer)}`);
  return { status: answer.status, code: answer.code };
};

const doors = {
  fs: (error: StorageError) => Promise.resolve(fsStorageFailure(error)),
  'file downloads': (error: StorageError) =>
    objectCall(() => Promise.reject(error), 'files.not_found').then(
      () => undefined,
      (answer: unknown) => answer,
    ),
};

describe('storage errors answer alike on every door', () => {
  it('gives every code a status and an error code', () => {
    for (const code of STORAGE_ERROR_CODES) assert.ok(STORAGE_STATUS[code], code);
  });
  for (const [name, door] of Object.entries(doors)) {
    it(`${name}: each code as the table says`, async () => {
      for (const code of STORAGE_ERROR_CODES) {
        // A share whose object is a folder is missing to its visitors (a 404 by design).
        if (name === 'file downloads' && code === 'IS_A_DIRECTORY') continue;
        const { status, code: errorCode } = STORAGE_STATUS[code];
        assert.deepEqual(await answerOf(door, new StorageError(code)), { status, code: errorCode }, code);
      }
    });
  }
  it('a storage refusing Cubby itself (sign-in, host key, TLS) is unavailable (503), not the caller forbidden', async () => {
    for (const [name, door] of Object.entries(doors)) {
      for (const reason of ['auth', 'host_key', 'tls'] as const) {
        const refused = new StorageError('FORBIDDEN', 'refused', { reason });
        assert.deepEqual(
          await answerOf(door, refused),
          { status: 503, code: 'STORAGE_UNAVAILABLE' },
          `${name} ${reason}`,
        );
      }
      // Signed in, but this one operation refused: that is a permission, 403.
      const denied = new StorageError('FORBIDDEN', 'denied', { reason: 'permission' });
      assert.deepEqual(await answerOf(door, denied), { status: 403, code: 'FORBIDDEN' }, name);
    }
  });
  it('tells a body too large (413) from a storage with no room (507)', () => {
    assert.equal(STORAGE_STATUS.TOO_LARGE.status, 413);
    assert.equal(STORAGE_STATUS.NO_SPACE.status, 507);
  });
});
