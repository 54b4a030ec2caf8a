/**
 * The upload endpoints the page calls (docs/api.md, "Uploading files"; docs/compatibility.md §4): the size
 * limit, presign/commit for small files, the multipart session for large ones, the URL-upload variants, and
 * deleting a share whose upload failed. Thin wrappers: the uploaders in ../transfer decide the order.
 */
import type {
  ConfirmedPart,
  FileShare,
  MaxUploadSize,
  MultipartAbortAnswer,
  MultipartCompleteAnswer,
  MultipartInitAnswer,
  MultipartStatus,
  PartUrlsAnswer,
  PresignAnswer,
  UrlCancelAnswer,
  UrlInfo,
  UrlMultipartInitAnswer,
} from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';
import type { ShareInput } from '../upload-form.ts';

/** The parts of a multipart upload as complete takes them. */
export type PartToComplete = Pick<ConfirmedPart, 'partNumber' | 'etag'>;

/** Which prefix manages the caller's files: the admin's, or a key user's own. */
export type FileScope = 'admin' | 'user';

/** Assembling a large object can take a while on some storage. */
const COMPLETE_TIMEOUT_MS = 120_000;

type CommitFields = Omit<ShareInput, 'slug' | 'path'>;

export const getMaxUploadSize = (signal?: AbortSignal) =>
  api.get<MaxUploadSize>('/system/max-upload-size', { signal });

export const presignUpload = (body: {
  s3_config_id?: string;
  filename: string;
  size: number;
  mimetype?: string;
  path?: string;
  slug?: string;
}) => api.post<PresignAnswer>('/s3/presign', body);

export const commitUpload = (body: CommitFields & { file_id: string; etag?: string; size: number }) =>
  api.post<FileShare>('/s3/commit', body, { timeoutMs: COMPLETE_TIMEOUT_MS });

export const deleteFileShare = (id: string, scope: FileScope) =>
  api.delete<unknown>(`/${scope}/files/${encodeURIComponent(id)}`);

export const initMultipart = (
  body: ShareInput & {
    s3_config_id?: string;
    filename: string;
    size: number;
    mimetype?: string;
    part_size: number;
  },
) => api.post<MultipartInitAnswer>('/s3/multipart/init', body);

export const getPartUrls = (body: { file_id: string; upload_id: string; part_numbers: number[] }) =>
  api.post<PartUrlsAnswer>('/s3/multipart/urls', body);

export const getMultipartStatus = (fileId: string, uploadId: string, signal?: AbortSignal) =>
  api.get<MultipartStatus>(
    `/s3/multipart/status?file_id=${encodeURIComponent(fileId)}&upload_id=${encodeURIComponent(uploadId)}`,
    { signal },
  );

export const reportPart = (body: { file_id: string; upload_id: string; partNumber: number; etag: string }) =>
  api.post<unknown>('/s3/multipart/part', body);

export const completeMultipart = (body: { file_id: string; upload_id: string; parts: PartToComplete[] }) =>
  api.post<MultipartCompleteAnswer>('/s3/multipart/complete', body, { timeoutMs: COMPLETE_TIMEOUT_MS });

export const abortMultipart = (body: { file_id: string; upload_id: string }) =>
  api.post<MultipartAbortAnswer>('/s3/multipart/abort', body);

export const getUrlInfo = (url: string, signal?: AbortSignal) =>
  api.post<UrlInfo>('/url/info', { url }, { signal });

export const presignUrlUpload = (body: {
  url: string;
  s3_config_id?: string;
  metadata: { filename: string; contentType: string; size: number };
  filename: string;
  slug?: string;
  remark?: string;
  path?: string;
}) => api.post<PresignAnswer>('/url/presign', body);

export const commitUrlUpload = (
  body: CommitFields & { file_id: string; etag?: string; size: number; slug?: string },
) => api.post<FileShare>('/url/commit', body, { timeoutMs: COMPLETE_TIMEOUT_MS });

export const initUrlMultipart = (
  body: ShareInput & {
    url: string;
    s3_config_id?: string;
    metadata: { filename: string; contentType: string; size: number };
    filename: string;
    part_size: number;
    total_size: number;
  },
) => api.post<UrlMultipartInitAnswer>('/url/multipart/init', body);

export const completeUrlMultipart = (body: { file_id: string; upload_id: string; parts: PartToComplete[] }) =>
  api.post<MultipartCompleteAnswer>('/url/multipart/complete', body, { timeoutMs: COMPLETE_TIMEOUT_MS });

export const abortUrlMultipart = (body: { file_id: string; upload_id: string }) =>
  api.post<MultipartAbortAnswer>('/url/multipart/abort', body);

export const cancelUrlUpload = (fileId: string) =>
  api.post<UrlCancelAnswer>('/url/cancel', { file_id: fileId });
