/**
 * Folders (or a selection of files and folders within one folder) downloaded as one zip archive,
 * streamed by the server (zip-archive.ts), and the short-lived signed links that let a browser start
 * such a download without an Authorization header.
 *
 * - Every requested path is put in canonical form and checked for the caller (a key: inside its base
 *   path) before any storage call, exactly as the other fs routes do (`Vfs.target`/`Vfs.check`).
 * - The tree is walked through the vfs listing (every page, never the listing cache, so sizes are
 *   the storage's own), folder by folder. A folder above several mounts — the virtual root, or `/a`
 *   over `/a/x` and `/a/y` — is walked through the resolver like any other: each mount below it
 *   becomes a folder of the archive.
 * - The whole tree is known before the first byte is sent, so a folder over the entry limit is a
 *   clear 400 and the archive's length is exact.
 * - A link is `v1.<payload>.<signature>`: the payload (deflated JSON: who, which paths, expiry) is
 *   signed with HMAC-SHA256 under the server secret. It names its principal, never a credential:
 *   when used, a key is looked up again (still there, not expired, still has the mount permission,
 *   the paths still inside its current base path); an admin link also dies with a password change.
 */
import type { Principal } from '@cubby/shared';
import { z } from 'zod';
import { AppError, badRequest, clientGone, forbidden } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { openLink, signLink, stampDigest, stampMatches } from '../../lib/signed-link.ts';
import { joinPath, MAX_PATH_TOKENS, type MountedPath, nameOf, parentOf, type Vfs } from '../../vfs/vfs.ts';
import type { ZipEntry } from './zip-archive.ts';

/** At most this many paths in one selection. */
export const ZIP_MAX_PATHS = 1000;
/**
 * Longest link token: with the rest of the URL it stays under the 8 KiB request line that common
 * proxies (nginx) accept. A selection too long for a link is refused when the link is asked for.
 */
const LINK_MAX_TOKEN_CHARS = 6000;
/** Longest payload a token may inflate to (a bound on what an unverified token could cost). */
const LINK_MAX_PAYLOAD_BYTES = 64 * 1024;
/** What zip links are signed for (lib/signed-link.ts): no other link opens as one. */
const LINK_PURPOSE = 'fs-zip';
const LINK_OPTIONS = {
  deflate: true,
  maxChars: LINK_MAX_TOKEN_CHARS,
  maxPayloadBytes: LINK_MAX_PAYLOAD_BYTES,
};

export interface ZipSubjects {
  /** The active person with this id and a stamp that changes with their password, or null. */
  user(id: string): Promise<{ principal: Principal; stamp: string } | null>;
  /** The key with this id as it is now, or null when deleted or expired. */
  apiKey(id: string): Promise<Principal | null>;
  /** The guest as it is now (null while guests may not browse). */
  guest?(): Promise<Principal | null>;
}

export interface FsZipDeps {
  vfs: Vfs;
  clock: Clock;
  secretKey: string;
  subjects: ZipSubjects;
  /** Most files and folders in one archive. */
  maxEntries: number;
  /** Seconds a link works. */
  linkSeconds: number;
}

export interface ZipPlan {
  /** The archive's name: the folder's, the selection's folder's, or `download.zip`. */
  filename: string;
  entries: ZipEntry[];
}

const linkPayload = z.object({
  v: z.literal(1),
  /** Who: a person (an admin or a member) or an API key, by id. */
  k: z.enum(['admin', 'member', 'apikey', 'guest']),
  i: z.string().min(1).max(100),
  /** The admin's stamp, keyed (so the URL shows nothing of it). */
  h: z.string().max(64).optional(),
  p: z.array(z.string().max(4096)).min(1).max(ZIP_MAX_PATHS),
  /** Expiry, Unix seconds. */
  e: z.number().int().positive(),
  /** The folder-password tokens the caller presented (vfs/folder-rules.ts), each checked again. */
  t: z.array(z.string().max(1000)).max(MAX_PATH_TOKENS).optional(),
});

const zipClientGone = () => clientGone('fs.zip_client_gone');

export class FsZipService {
  constructor(private readonly deps: FsZipDeps) {}

  private get vfs() {
    return this.deps.vfs;
  }

  /** `principal` carrying the folder-password tokens a request presented (vfs/folder-rules.ts). */
  withTokens(principal: Principal, tokens: readonly string[]): Principal {
    return this.vfs.folderRules.withTokens(principal, tokens);
  }

  /**
   * The canonical paths of a request, each checked for `principal` (403 as on every fs route),
   * before anything touches storage: one path (a folder or a file), or several within one folder.
   */
  targets(principal: Principal, raws: readonly string[]): string[] {
    if (raws.length === 0) throw badRequest('fs.path_required');
    if (raws.length > ZIP_MAX_PATHS) throw badRequest('fs.zip_too_many_paths');
    const paths = [...new Set(raws.map((raw) => this.vfs.target(raw).path))];
    for (const path of paths) this.vfs.check(principal, path, 'read');
    if (paths.length > 1) {
      const parent = parentOf(paths[0]!);
      if (paths.some((p) => p === '/' || parentOf(p) !== parent)) throw badRequest('fs.zip_one_folder');
    }
    return paths;
  }

  /** Everything the archive will hold, found before the first byte is sent. */
  async plan(principal: Principal, raws: readonly string[], signal?: AbortSignal): Promise<ZipPlan> {
    const paths = this.targets(principal, raws);
    const entries: ZipEntry[] = [];
    const add = (entry: ZipEntry) => {
      if (entries.length >= this.deps.maxEntries) {
        throw badRequest('fs.zip_too_many_entries', {
          limit: this.deps.maxEntries.toLocaleString('en-US'),
        });
      }
      entries.push(entry);
    };
    const single = paths.length === 1;
    for (const path of paths) {
      const at = await this.vfs.resolve(principal, path, 'read');
      const entry = at.kind === 'mount' ? await this.vfs.entry(at) : undefined;
      if (at.kind === 'mount' && entry && !entry.isDirectory) {
        add(fileEntry(this.vfs, at, at.subPath, nameOf(path), entry.size, entry.modified));
        continue;
      }
      // A folder on its own gives the archive's root; in a selection, a folder of it.
      await this.walk(principal, path, single ? '' : nameOf(path), add, signal);
    }
    // Named after what was chosen: the folder (or file), or the folder a selection is in.
    const named = single ? paths[0]! : parentOf(paths[0]!);
    return { filename: `${nameOf(named) || 'download'}.zip`, entries };
  }

  /**
   * Adds `root` (as `name/`, unless `name` is empty) and everything below it, folder by folder:
   * each folder's entry, then its files, then its folders.
   */
  private async walk(
    principal: Principal,
    root: string,
    name: string,
    add: (entry: ZipEntry) => void,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const pending: Array<{ path: string; name: string; modified: Date | null }> = [
      { path: root, name, modified: null },
    ];
    while (pending.length > 0) {
      if (signal?.aborted) throw zipClientGone();
      const dir = pending.pop()!;
      const listed = await this.vfs.list(principal, dir.path, { cache: 'bypass' }).catch((error: unknown) => {
        // A folder below whose password the caller did not give stays out, as the explorer shows
        // it closed; the folder asked for itself answers 403 and names the password it needs.
        if (dir.path !== root && error instanceof AppError && error.code === 'FS_PATH_PASSWORD_REQUIRED') {
          return null;
        }
        throw error;
      });
      if (!listed) continue;
      if (dir.name) add({ kind: 'dir', name: dir.name, modified: dir.modified });
      const prefix = dir.name ? `${dir.name}/` : '';
      const { items } = listed;
      const folders = items.filter((i) => i.isDirectory);
      const files = items.filter((i) => !i.isDirectory);
      // A file's bytes are read from the mount that lists it: the folder's.
      let at: MountedPath | undefined;
      if (files.length > 0) at = await this.vfs.resolveMounted(principal, dir.path, 'read');
      const folderNames = new Set(folders.map((f) => f.name));
      for (const file of files) {
        // A mount whose path shadows a file of the same name wins, as in the listing's folders.
        if (folderNames.has(file.name)) continue;
        this.vfs.check(principal, joinPath(dir.path, file.name), 'read');
        add(
          fileEntry(
            this.vfs,
            at!,
            joinPath(at!.subPath, file.name),
            prefix + file.name,
            file.size,
            file.modified ? new Date(file.modified) : null,
          ),
        );
      }
      for (const folder of folders.reverse()) {
        pending.push({
          path: joinPath(dir.path, folder.name),
          name: prefix + folder.name,
          modified: folder.modified ? new Date(folder.modified) : null,
        });
      }
    }
  }

  // ---- links ----------------------------------------------------------------------------------

  /**
   * A link that downloads the archive of `raws` without credentials until it expires. The archive
   * is planned now too, so what would fail later (a path outside the key's base path, a missing
   * folder, too many entries) is answered here, where a client can show it.
   */
  async createLink(
    principal: Principal,
    raws: readonly string[],
  ): Promise<{ token: string; expiresAt: Date }> {
    const paths = this.targets(principal, raws);
    await this.plan(principal, paths);
    const exp = Math.floor(this.deps.clock.now().getTime() / 1000) + this.deps.linkSeconds;
    const tokens = this.vfs.folderRules.tokensOf(principal);
    let stamp: string | undefined;
    if (principal.type === 'admin' || principal.type === 'member') {
      const user = await this.deps.subjects.user(principal.id);
      if (!user) throw forbidden('fs.zip_link_invalid');
      stamp = stampDigest(this.deps.secretKey, LINK_PURPOSE, user.stamp);
    }
    const payload: z.infer<typeof linkPayload> = {
      v: 1,
      k: principal.type,
      i: principal.id,
      ...(stamp ? { h: stamp } : {}),
      p: paths,
      e: exp,
      ...(tokens.length > 0 ? { t: [...tokens] } : {}),
    };
    const token = signLink(this.deps.secretKey, LINK_PURPOSE, payload, LINK_OPTIONS);
    if (token.length > LINK_MAX_TOKEN_CHARS) throw badRequest('fs.zip_selection_too_long');
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Who a link speaks for and which paths it names: the signature first (constant time), then the
   * expiry, then the principal as it is now. 403 for a link that is malformed, tampered with,
   * expired, or whose principal is gone; a key that lost the mount permission gets the usual 403.
   */
  async openLink(token: string | undefined): Promise<{ principal: Principal; paths: string[] }> {
    const payload = openLink(this.deps.secretKey, LINK_PURPOSE, token, linkPayload, LINK_OPTIONS);
    if (!payload) throw forbidden('fs.zip_link_invalid');
    if (this.deps.clock.now().getTime() >= payload.e * 1000) throw forbidden('fs.zip_link_expired');
    let principal: Principal | null;
    if (payload.k === 'guest') {
      principal = (await this.deps.subjects.guest?.()) ?? null;
    } else if (payload.k !== 'apikey') {
      // A person, as they are now: their role and reach today, never those of when the link was made.
      const user = await this.deps.subjects.user(payload.i);
      principal =
        user && stampMatches(this.deps.secretKey, LINK_PURPOSE, user.stamp, payload.h)
          ? user.principal
          : null;
    } else {
      principal = await this.deps.subjects.apiKey(payload.i);
    }
    if (!principal) throw forbidden('fs.zip_link_revoked');
    if (principal.type === 'apikey' && !principal.permissions.mount) {
      throw forbidden('auth.permission_required', { permission: 'mount' });
    }
    return { principal: this.withTokens(principal, payload.t ?? []), paths: payload.p };
  }
}

/** A file of the archive, read from its mount when the archive reaches it. */
function fileEntry(
  vfs: Vfs,
  at: MountedPath,
  subPath: string,
  name: string,
  size: number,
  modified: Date | null,
): ZipEntry {
  return {
    kind: 'file',
    name,
    size,
    modified,
    open: async () => {
      const read = await vfs.read(at, { subPath });
      return { body: read.body, size: read.size };
    },
  };
}
