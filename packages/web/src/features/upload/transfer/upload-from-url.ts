/**
 * URL uploads (docs/product.md §4): the URL was analysed (`/api/url/info`); now the browser downloads it
 * (directly, or through the server proxy when CORS forbids) and uploads it to storage. Progress:
 * 0–49 % downloading, 50–99 % uploading, then commit.
 * - Size known and above the multipart threshold: a URL multipart session; parts are cut from the
 *   download as it arrives and sent three at a time (the download waits while three are in flight).
 * - Otherwise: the body is collected into a Blob (a browser cannot stream a download into a PUT),
 *   then presign → PUT → commit.
 * A failure after the server made a record cancels it (`/url/cancel`, `/url/multipart/abort`).
 */
import type { FileShare, UrlInfo } from '@cubby/shared';
import {
  abortUrlMultipart,
  cancelUrlUpload,
  commitUrlUpload,
  completeUrlMultipart,
  getPartUrls,
  initUrlMultipart,
  presignUrlUpload,
} from '../api/upload-api.ts';
import {
  collectBlob,
  streamParts,
  chooseStrategy,
  partSizeFor,
  PartUrls,
  putToPresignedUrls,
  sendParts,
  TransferError,
} from '../../../lib/transfer/index.ts';
import { putAndCommit } from './presigned-put.ts';
import { checkCancelled, type UploadRun } from './upload-run.ts';
import { openUrlSource } from './url-source.ts';

const downloadPercent = (loaded: number, total: number) =>
  total > 0 ? Math.min(49, Math.floor((loaded / total) * 49)) : 0;
const uploadPercent = (loaded: number, total: number) =>
  50 + (total > 0 ? Math.min(49, Math.floor((loaded / total) * 49)) : 0);

/** What is uploaded: the analysed URL with the name and type to store it under. */
export interface UrlSource {
  info: UrlInfo;
  filename: string;
  /** The largest file allowed (the upload limit, the share policy): a download is cut when it passes it. */
  maxBytes?: number | null;
}

export async function uploadFromUrl(source: UrlSource, run: UploadRun): Promise<FileShare> {
  const size = source.info.size;
  if (size !== null && size > 0 && chooseStrategy(size, run.tuning) === 'multipart') {
    return uploadUrlMultipart(source, size, run);
  }
  return uploadUrlSingle(source, run);
}

async function uploadUrlSingle({ info, filename, maxBytes }: UrlSource, run: UploadRun): Promise<FileShare> {
  const { share, configId } = run.target;
  run.stage('downloading');
  const opened = await openUrlSource(info.url, run.signal);
  const expected = info.size ?? opened.length ?? 0;
  const blob = await collectBlob(
    opened.body,
    info.contentType,
    run.signal,
    (loaded) => run.progress({ percent: downloadPercent(loaded, expected), loaded, total: expected }),
    maxBytes ?? null,
  );
  checkCancelled(run);
  run.stage('initializing');
  const presigned = await presignUrlUpload({
    url: info.url,
    ...(configId ? { s3_config_id: configId } : {}),
    metadata: { filename, contentType: info.contentType, size: blob.size },
    filename,
    ...(share.slug ? { slug: share.slug } : {}),
    ...(share.remark ? { remark: share.remark } : {}),
    ...(share.path ? { path: share.path } : {}),
  });
  return putAndCommit(presigned, blob, run, {
    percent: uploadPercent,
    // The URL commit may also carry the suffix (the server checks it once more).
    commit: (fields) => commitUrlUpload({ ...fields, ...(share.slug ? { slug: share.slug } : {}) }),
    cleanup: cancelUrlUpload,
  });
}

async function uploadUrlMultipart(
  { info, filename }: UrlSource,
  size: number,
  run: UploadRun,
): Promise<FileShare> {
  const { share, configId } = run.target;
  run.stage('initializing');
  const init = await initUrlMultipart({
    ...share,
    url: info.url,
    ...(configId ? { s3_config_id: configId } : {}),
    metadata: { filename, contentType: info.contentType, size },
    filename,
    part_size: partSizeFor(size, run.tuning.partSize),
    total_size: size,
  });
  const ids = { file_id: init.file_id, upload_id: init.upload_id };
  try {
    run.stage('downloading');
    const opened = await openUrlSource(info.url, run.signal);
    const numbers = Array.from({ length: init.part_count }, (_, i) => i + 1);
    const urls = new PartUrls(
      async (part_numbers) => (await getPartUrls({ ...ids, part_numbers })).urls,
      numbers,
    );
    urls.seed(init.presigned_urls);

    let downloaded = 0;
    let downloadDone = false;
    let sent = 0;
    const report = () => {
      if (downloadDone) run.progress({ percent: uploadPercent(sent, size), loaded: sent, total: size });
      else run.progress({ percent: downloadPercent(downloaded, size), loaded: downloaded, total: size });
    };
    // Parts are cut as the download arrives; a failed part stops the pool, which closes the download.
    async function* partsOfDownload() {
      for await (const part of streamParts(opened.body, init.part_size, run.signal, (loaded) => {
        downloaded = loaded;
        report();
      })) {
        if (part.partNumber > init.part_count) throw new TransferError('size-mismatch');
        yield part;
      }
      downloadDone = true;
      run.stage('uploading');
      report();
    }
    const parts = await sendParts(partsOfDownload(), {
      tuning: run.tuning,
      signal: run.signal,
      send: putToPresignedUrls(urls),
      onProgress: (loaded) => {
        sent = loaded;
        report();
      },
    });
    if (downloaded !== size || parts.length !== init.part_count) throw new TransferError('size-mismatch');
    checkCancelled(run);
    run.stage('completing');
    return await completeUrlMultipart({ ...ids, parts });
  } catch (error) {
    await abortUrlMultipart(ids).catch(() => {});
    throw error;
  }
}
