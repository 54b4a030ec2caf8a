/**
 * File shares follow their files, whatever door changed them (vfs/changes.ts): a file written
 * again is described by its shares as it is now, a file or folder moved takes its shares along —
 * within a mount, to another mount, to another storage — and a file or folder deleted takes its
 * shares with it. The one home of that rule; every door only says what it changed.
 */
import type { Clock } from '../../lib/clock.ts';
import type { StorageChange } from '../../vfs/changes.ts';
import type { FilesRepository } from './files.repository.ts';

export function shareUpkeep(files: FilesRepository, clock: Clock): (change: StorageChange) => Promise<void> {
  return async (change) => {
    switch (change.kind) {
      case 'written':
        await files.refreshStored(change.at.configId, change.at.path, {
          size: change.size,
          etag: change.etag ?? null,
          updated_at: clock.now().toISOString(),
        });
        return;
      case 'moved':
        await files.moveUnder(change.from, change.to);
        return;
      case 'deleted':
        // A share that deleted its own object answers 410 from its record until it is purged.
        if (!change.ownShare) await files.deleteUnder(change.at.configId, change.at.path);
        return;
      case 'made':
        return;
    }
  };
}
