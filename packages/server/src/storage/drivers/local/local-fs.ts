/**
 * The local driver's way to the disk: every name is looked up inside a directory that is already
 * open, never through a path string that could change between a check and its use, and no
 * symbolic link is ever followed (docs/architecture.md, "Drivers").
 *
 * A folder is opened one component at a time from the storage root, each with `O_NOFOLLOW |
 * O_DIRECTORY`, and the names inside it are reached through `/proc/self/fd/<fd>/<name>`: the kernel
 * resolves that prefix to the very directory the descriptor holds, whatever has been renamed or
 * swapped meanwhile (Linux's openat, for a runtime that has no openat). Files are opened with
 * `O_NOFOLLOW`; stat is lstat; rename, unlink, rmdir and mkdir never follow a last component anyway.
 * So a link planted anywhere below the root — even swapped in while a request runs — is refused
 * (ELOOP) or treated as absent, and nothing outside the root is read or written through it.
 *
 * Without `/proc/self/fd` (not Linux) the same calls use plain paths below the root, each
 * component still opened with `O_NOFOLLOW`; links are still refused, but a swap between two steps
 * is not excluded there.
 */
import { type BigIntStats, constants, type Dirent, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import { StorageError } from '../../driver.ts';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Whether names can be reached through an open directory's descriptor. */
export const ANCHORED = existsSync('/proc/self/fd');

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/** A directory held open below the root (or the root itself). Close it when done. */
export class OpenDir {
  private constructor(
    private readonly handle: fs.FileHandle,
    /** Its path on disk when descriptors cannot be used as anchors. */
    private readonly plain: string,
    /** Its driver path ("/a/b"), for messages. */
    readonly path: string,
  ) {}

  /** Opens the storage root (the admin chose it, so a link there is taken as it is). */
  static async root(abs: string): Promise<OpenDir> {
    const handle = await fs.open(abs, O_RDONLY | O_DIRECTORY);
    return new OpenDir(handle, abs, '/');
  }

  /** A path the kernel resolves to this very directory. */
  get anchor(): string {
    return ANCHORED ? `/proc/self/fd/${this.handle.fd}` : this.plain;
  }

  /** The path of a name inside this directory (one component). */
  at(name: string): string {
    return `${this.anchor}/${name}`;
  }

  childPath(name: string): string {
    return this.path === '/' ? `/${name}` : `${this.path}/${name}`;
  }

  /**
   * Opens the folder `name` inside this one; with `create`, makes it first when it is missing.
   * A link there is FORBIDDEN, a file NOT_A_DIRECTORY, nothing NOT_FOUND.
   */
  async open(name: string, options: { create?: boolean } = {}): Promise<OpenDir> {
    for (let attempt = 0; ; attempt++) {
      try {
        const handle = await fs.open(this.at(name), DIR_FLAGS);
        return new OpenDir(handle, nodePath.join(this.plain, name), this.childPath(name));
      } catch (error) {
        const code = errno(error);
        if (code === 'ENOENT' && options.create && attempt < 3) {
          await fs.mkdir(this.at(name)).catch((made: unknown) => {
            if (errno(made) !== 'EEXIST') throw made;
          });
          continue;
        }
        // With O_DIRECTORY, a link is ENOTDIR rather than ELOOP: tell it from a file.
        if (code === 'ENOTDIR' && (await this.lstat(name).catch(() => null))?.isSymbolicLink()) {
          throw dirError(Object.assign(new Error('link'), { code: 'ELOOP' }), this.childPath(name));
        }
        throw dirError(error, this.childPath(name));
      }
    }
  }

  /** A second handle on this very folder (each is closed by its holder). */
  async reopen(): Promise<OpenDir> {
    return new OpenDir(await fs.open(this.at('.'), DIR_FLAGS), this.plain, this.path);
  }

  /** Walks `segments` down from here, closing each folder on the way; the caller closes the last. */
  async walk(segments: readonly string[], options: { create?: boolean } = {}): Promise<OpenDir> {
    // An open handle of its own even for no segments, so the caller may always close what it gets.
    let dir = await this.reopen();
    try {
      for (const segment of segments) {
        const next = await dir.open(segment, options);
        await dir.close();
        dir = next;
      }
      return dir;
    } catch (error) {
      await dir.close();
      throw error;
    }
  }

  /** Names and kinds inside (readdir reports a link as a link: it is never followed). */
  async entries(): Promise<Dirent[]> {
    return fs.readdir(this.anchor, { withFileTypes: true });
  }

  /** lstat of a name inside; null when nothing is there. */
  async lstat(name: string): Promise<BigIntStats | null> {
    try {
      return await fs.lstat(this.at(name), { bigint: true });
    } catch (error) {
      if (errno(error) === 'ENOENT') return null;
      throw error;
    }
  }

  stat(): Promise<BigIntStats> {
    return this.handle.stat({ bigint: true });
  }

  /** Opens a file inside for reading, never through a link (ELOOP then). */
  openFile(name: string): Promise<fs.FileHandle> {
    return fs.open(this.at(name), O_RDONLY | O_NOFOLLOW);
  }

  /** Creates a new file inside (never through a link: O_EXCL does not follow one). */
  createFile(name: string): Promise<fs.FileHandle> {
    return fs.open(this.at(name), 'wx');
  }

  /**
   * Removes `name` inside and, when it is a folder, everything in it, folder by open folder: a
   * folder swapped for a link meanwhile is unlinked, never descended into.
   */
  async removeTree(name: string): Promise<void> {
    let child: OpenDir;
    try {
      child = await this.open(name);
    } catch (error) {
      if (error instanceof StorageError && error.code === 'NOT_FOUND') return;
      // A file or a link: unlink removes it, never what it points at.
      await fs.unlink(this.at(name)).catch((gone: unknown) => {
        if (errno(gone) !== 'ENOENT') throw gone;
      });
      return;
    }
    try {
      for (const entry of await child.entries()) {
        if (entry.isDirectory()) await child.removeTree(entry.name);
        else
          await fs.unlink(child.at(entry.name)).catch((gone: unknown) => {
            if (errno(gone) !== 'ENOENT') throw gone;
          });
      }
    } finally {
      await child.close();
    }
    await fs.rmdir(this.at(name)).catch((gone: unknown) => {
      if (errno(gone) !== 'ENOENT') throw gone;
    });
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

/** What opening a folder failed with, as a StorageError. */
function dirError(error: unknown, path: string): unknown {
  switch (errno(error)) {
    case 'ENOENT':
      return new StorageError('NOT_FOUND', `${path} not found`, { cause: error });
    case 'ENOTDIR':
      return new StorageError('NOT_A_DIRECTORY', `${path} is not a directory`, { cause: error });
    case 'ELOOP':
      return new StorageError('FORBIDDEN', `${path} is a link, which is never followed`, { cause: error });
    default:
      return error;
  }
}

/** Runs `use` with an open folder and closes it after, whatever happens. */
export async function withDir<T>(dir: Promise<OpenDir>, use: (dir: OpenDir) => Promise<T>): Promise<T> {
  const open = await dir;
  try {
    return await use(open);
  } finally {
    await open.close();
  }
}
