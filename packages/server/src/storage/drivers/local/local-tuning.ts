/** The local-disk driver's tuning (docs/architecture.md, "Drivers"). */

/** The most bytes one read hands out at a time. */
export const READ_CHUNK = 256 * 1024;
/** The longest a presigned URL may live: SigV4's 7 days, as on S3. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
