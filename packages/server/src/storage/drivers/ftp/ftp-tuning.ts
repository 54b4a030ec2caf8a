/** The FTP driver's fixed numbers (docs/architecture.md, "Drivers"). */
export const FTP_TUNING = {
  /** Control connections one driver keeps at most; each runs one command at a time (a copy takes two). */
  maxClients: 3,
  /** How long a call waits for a free connection before it fails UNAVAILABLE. */
  acquireTimeoutMs: 60_000,
  /**
   * basic-ftp's timeout: connecting, a control connection silent while a reply is due, and an
   * upload whose sender sends nothing for this long.
   */
  timeoutMs: 30_000,
  /** A connection idle this long is checked with NOOP before it is used again. */
  idleCheckMs: 30_000,
  /** How long a read stopped early waits for the server's reply to the cut transfer. */
  abortReplyMs: 5_000,
  /** Bytes a read buffers ahead of its consumer. */
  readAheadBytes: 1024 * 1024,
  /** Entries `sweepTemp` looks at, at most, per sweep. */
  sweepMaxEntries: 100_000,
} as const;
