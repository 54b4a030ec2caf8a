/**
 * What a change to storage is, said once by whoever made it, heard by everything that must follow
 * it (docs/architecture.md, "Change events"): the listings cache forgets the folders it touched,
 * file shares follow their file when it is moved and go when it is deleted, and later features
 * (quota usage, search, thumbnails) subscribe the same way. A change names a storage config and a
 * driver path in it, so it holds however many mounts show that storage, and for changes that never
 * went through a mount (a share upload) too.
 */

/** A place in storage: a storage config and a driver path inside it ("/" is its root). */
export interface Place {
  configId: string;
  path: string;
}

export type StorageChange =
  /**
   * A file was made or replaced. `previousSize`: the size of the file it replaced (0 when there was
   * none), when the writer looked; without it the quota's count is taken again (vfs/quota.ts).
   */
  | { kind: 'written'; at: Place; size: number; etag: string | undefined; previousSize?: number }
  /** A folder was made (with any missing parents). */
  | { kind: 'made'; at: Place }
  /**
   * A file, or a folder with everything in it, is gone. `ownShare`: it was a share's own object,
   * deleted by the share's upkeep (used up, expired, deleted), which keeps the record as it must.
   * `size`: the bytes a deleted file held, when known (a folder's are counted again).
   */
  | { kind: 'deleted'; at: Place; ownShare?: true; size?: number }
  /** A file, or a folder with everything in it, now lives at `to` (any storage). */
  | { kind: 'moved'; from: Place; to: Place };

export type ChangeListener = (change: StorageChange) => Promise<void> | void;

/**
 * The listeners of storage changes, in the order they subscribed. `publish` resolves once every
 * listener has handled the change, so an answer sent after it describes the world after the
 * change; a listener that fails makes `publish` fail (after the others ran), never silently.
 */
export class ChangeFeed {
  private readonly listeners: ChangeListener[] = [];

  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  async publish(change: StorageChange): Promise<void> {
    const failures: unknown[] = [];
    for (const listener of this.listeners) {
      try {
        await listener(change);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'listeners of a storage change failed');
  }
}
