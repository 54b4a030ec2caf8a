/**
 * The second half of a presigned upload, the same for a picked file and a downloaded URL: one PUT
 * of the body to storage with exactly the headers presign asked for, then the commit with the share
 * settings. Any failure once the record exists runs `cleanup` (delete or cancel the record) so no
 * half-made share is left behind.
 */
import type { FileShare, PresignAnswer } from '@cubby/shared';
import { checkCancelled, type UploadRun } from './upload-run.ts';
import { putBlob } from '../../../lib/transfer/index.ts';

/** What commit takes besides the share's place (slug and folder were set at presign). */
export interface CommitFields {
  file_id: string;
  etag?: string;
  size: number;
  password?: string;
  remark?: string;
  expires_in: number;
  max_views: number;
}

export async function putAndCommit(
  presigned: PresignAnswer,
  body: Blob,
  run: UploadRun,
  options: {
    /** Whole percent of the item for `loaded` bytes of the PUT. */
    percent(loaded: number, total: number): number;
    commit(fields: CommitFields): Promise<FileShare>;
    cleanup(fileId: string): Promise<unknown>;
  },
): Promise<FileShare> {
  const { share } = run.target;
  try {
    checkCancelled(run);
    run.stage('uploading');
    run.progress({ percent: options.percent(0, body.size), loaded: 0, total: body.size });
    const { etag } = await putBlob(presigned.upload_url, body, {
      headers: presigned.upload_headers ?? { 'Content-Type': presigned.contentType },
      signal: run.signal,
      timeoutMs: run.tuning.transferTimeoutMs,
      onProgress: (loaded) =>
        run.progress({ percent: options.percent(loaded, body.size), loaded, total: body.size }),
    });
    checkCancelled(run);
    run.stage('completing');
    return await options.commit({
      file_id: presigned.file_id,
      ...(etag ? { etag } : {}),
      size: body.size,
      ...(share.password ? { password: share.password } : {}),
      ...(share.remark ? { remark: share.remark } : {}),
      expires_in: share.expires_in,
      max_views: share.max_views,
    });
  } catch (error) {
    await options.cleanup(presigned.file_id).catch(() => {});
    throw error;
  }
}
