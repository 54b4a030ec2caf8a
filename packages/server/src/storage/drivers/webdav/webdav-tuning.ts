/** The WebDAV driver's limits and timeouts (docs/architecture.md, "Drivers"); tests pass smaller ones. */

export interface WebdavTuning {
  /**
   * Most entries one folder's listing may hold. A PROPFIND answer is parsed as a stream, but its
   * entries are kept to be sorted (WebDAV servers list in no set order), so a folder past this many
   * fails with TOO_LARGE instead of growing memory without bound (about 500 bytes an entry with
   * names of 20 characters: some 50 MB at the bound).
   */
  maxListEntries: number;
  /** An idle socket (no byte either way) for this long fails the request with UNAVAILABLE. */
  socketTimeoutMs: number;
  /** Requests in flight at once per driver; more wait for a free socket. */
  maxSockets: number;
  /** Most folders one `sweepTemp` walks. */
  sweepMaxFolders: number;
  /** Times a request answered 423 (Locked) is sent again, after LOCKED_RETRY_MS × its attempt. */
  lockedRetries: number;
}

export const DEFAULT_WEBDAV_TUNING: WebdavTuning = {
  maxListEntries: 100_000,
  socketTimeoutMs: 30_000,
  maxSockets: 32,
  sweepMaxFolders: 10_000,
  lockedRetries: 6,
};

export const LOCKED_RETRY_MS = 25;

/** Longest text of one XML element kept from a PROPFIND answer (an href, an ETag, a date). */
export const MAX_PROP_CHARS = 16 * 1024;
