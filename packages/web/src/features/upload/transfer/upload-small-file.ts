/**
 * Small files (docs/product.md §4 "Presigned upload"): presign → one PUT of the File straight to storage →
 * commit. If anything fails once the server has a file record, the record (and any object) is
 * deleted through the caller's management prefix (admin or user).
 */
import type { FileShare } from '@cubby/shared';
import { commitUpload, deleteFileShare, presignUpload } from '../api/upload-api.ts';
import { percentOf } from '../../../lib/transfer/index.ts';
import { putAndCommit } from './presigned-put.ts';
import type { UploadRun } from './upload-run.ts';

export async function uploadSmallFile(file: File, run: UploadRun): Promise<FileShare> {
  const { share, configId } = run.target;
  run.stage('initializing');
  const presigned = await presignUpload({
    ...(configId ? { s3_config_id: configId } : {}),
    filename: file.name,
    size: file.size,
    ...(file.type ? { mimetype: file.type } : {}),
    ...(share.path ? { path: share.path } : {}),
    ...(share.slug ? { slug: share.slug } : {}),
  });
  return putAndCommit(presigned, file, run, {
    percent: (loaded, total) => Math.min(99, percentOf(loaded, total)),
    commit: commitUpload,
    cleanup: (fileId) => deleteFileShare(fileId, run.scope),
  });
}
