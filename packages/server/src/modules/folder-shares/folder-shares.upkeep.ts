/**
 * Folder shares follow their folder, whatever door changed it (vfs/changes.ts), as file shares
 * follow their files (modules/files/share-upkeep.ts): a folder moved — within a mount, to another
 * mount, to another storage — takes its shares along; a folder deleted (or one above it) leaves its
 * shares saying so, so a folder made again later under the same name is never shown by an old link.
 */
import type { Clock } from '../../lib/clock.ts';
import type { StorageChange } from '../../vfs/changes.ts';
import type { FolderSharesRepository } from './folder-shares.repository.ts';

export function folderShareUpkeep(
  repo: FolderSharesRepository,
  clock: Clock,
): (change: StorageChange) => Promise<void> {
  return async (change) => {
    if (change.kind === 'moved') await repo.moveUnder(change.from, change.to);
    else if (change.kind === 'deleted' && !change.ownShare) {
      await repo.markGone(change.at, clock.now().toISOString());
    }
  };
}
