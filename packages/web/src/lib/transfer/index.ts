/**
 * Public surface of the transfer engine (docs/architecture.md, "The web app"): everything that moves a file
 * from the browser in parts, whoever receives it — the share upload page (presigned PUTs to
 * storage) and the explorer (POSTs to this server). The part plan and tuning, the part sender with
 * its pool and retries, the PUT with progress, the kept records that let an upload continue after a
 * reload, the download reader, the meter, and how failures are classified and shown. What differs
 * (which endpoints, which records) stays with each feature.
 */
export { collectBlob, streamParts, type StreamedPart } from './body-reader.ts';
export {
  KEPT_MAX_AGE_MS,
  KeptRecords,
  isSameFile,
  type FileIdentity,
  type KeptRecordsKind,
  type StorageLike,
} from './kept-records.ts';
export {
  chooseStrategy,
  confirmedBytes,
  missingParts,
  partSizeFor,
  planParts,
  slicesOf,
  type PartRange,
  type UploadStrategy,
} from './part-plan.ts';
export {
  PartUrls,
  putToPresignedUrls,
  sendParts,
  type PartToSend,
  type PartTransfer,
  type SendAttempt,
  type SendPartsOptions,
  type SentPart,
} from './part-sender.ts';
export { childController, runPool, withRetry } from './task-runner.ts';
export {
  TransferError,
  cancelledError,
  isCancellation,
  isRetryableTransfer,
  toUploadFailure,
  type StorageShortage,
  type TransferFailureKind,
  type UploadFailure,
} from './transfer-error.ts';
export { TransferMeter, formatDuration, meteredProgress, percentOf } from './transfer-meter.ts';
export { DEFAULT_TUNING, MiB, readTuning, type UploadTuning } from './upload-tuning.ts';
export { putBlob, type PutOptions } from './xhr-put.ts';
