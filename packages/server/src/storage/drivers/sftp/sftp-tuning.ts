/**
 * The SFTP driver's tuning: connections, timeouts and how much is in flight at once
 * (docs/architecture.md, "Drivers"). Tests pass shorter timeouts.
 */

export interface SftpTuning {
  /** SFTP sessions (one SSH connection each) a driver keeps at most. */
  maxSessions: number;
  /** How long an unused session stays open. */
  idleMs: number;
  /** How long connecting and signing in may take before the server counts as unreachable. */
  readyTimeoutMs: number;
  /** Keepalive interval; three unanswered ones end a connection that died silently. */
  keepaliveMs: number;
}

export const DEFAULT_SFTP_TUNING: SftpTuning = {
  maxSessions: 4,
  idleMs: 60_000,
  readyTimeoutMs: 10_000,
  keepaliveMs: 15_000,
};

/** Bytes one read request asks for, and read requests a download keeps in flight ahead of its reader. */
export const READ_CHUNK = 64 * 1024;
export const READS_AHEAD = 16;
/**
 * READDIR requests a listing keeps in flight (each answer is a batch of names with their
 * attributes, OpenSSH sends up to 100).
 */
export const READDIRS_AHEAD = 4;
/**
 * Bytes one write request carries (OpenSSH takes up to 255 KiB), and bytes of unanswered write
 * requests an upload keeps in flight: as much as OpenSSH's channel window, so the server always
 * has the next requests in hand. More would only wait in this process's memory.
 */
export const WRITE_CHUNK = 128 * 1024;
export const WRITE_IN_FLIGHT = 2 * 1024 * 1024;
/** Requests in flight at once for the many small operations of a folder (removing, listing parts). */
export const TREE_CONCURRENCY = 16;
/** Entries a temp-file sweep looks at, at most, in one run. */
export const SWEEP_MAX_ENTRIES = 100_000;
/** Files of a folder copied at once (each holds its reads ahead and its writes in flight). */
export const COPY_CONCURRENCY = 4;
