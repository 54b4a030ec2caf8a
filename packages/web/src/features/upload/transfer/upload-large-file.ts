/**
 * Large files: a multipart upload straight to storage. Init (or, for a file picked again after a
 * reload, the session's status: only the parts it lacks are sent), then parts cut with
 * `File.slice()` — never read whole — three in flight, each retried with backoff and reported to
 * the server as it finishes, then complete. The session is remembered in localStorage until it
 * completes; a failure keeps it (retry resumes), a cancel aborts it.
 */
import type { ConfirmedPart, FileShare } from '@cubby/shared';
import { isApiError } from '../../../lib/api/index.ts';
import {
  confirmedBytes,
  missingParts,
  partSizeFor,
  planParts,
  slicesOf,
  PartUrls,
  putToPresignedUrls,
  sendParts,
  TransferError,
  percentOf,
} from '../../../lib/transfer/index.ts';
import {
  abortMultipart,
  completeMultipart,
  getMultipartStatus,
  getPartUrls,
  initMultipart,
  reportPart,
} from '../api/upload-api.ts';
import type { ResumeRecord } from '../resume-store.ts';
import { checkCancelled, type UploadRun } from './upload-run.ts';

interface Session {
  file_id: string;
  upload_id: string;
  part_size: number;
  part_count: number;
}

/** The session to continue and the parts it has, or null when it is gone on the server. */
async function resumeSession(
  record: ResumeRecord,
  run: UploadRun,
): Promise<{ session: Session; done: ConfirmedPart[] } | null> {
  try {
    const status = await getMultipartStatus(record.file_id, record.upload_id, run.signal);
    return {
      session: {
        file_id: record.file_id,
        upload_id: record.upload_id,
        part_size: status.part_size,
        part_count: status.part_count,
      },
      done: status.parts,
    };
  } catch (error) {
    if (isApiError(error) && [400, 404, 410].includes(error.status)) {
      run.resumeStore.forget(record.file_id);
      return null;
    }
    throw error;
  }
}

async function startSession(file: File, run: UploadRun): Promise<Session> {
  const { share, configId } = run.target;
  const init = await initMultipart({
    ...share,
    ...(configId ? { s3_config_id: configId } : {}),
    filename: file.name,
    size: file.size,
    ...(file.type ? { mimetype: file.type } : {}),
    part_size: partSizeFor(file.size, run.tuning.partSize),
  });
  run.resumeStore.save({
    file_id: init.file_id,
    upload_id: init.upload_id,
    name: file.name,
    size: file.size,
    lastModified: file.lastModified,
    part_size: init.part_size,
    part_count: init.part_count,
    startedAt: Date.now(),
  });
  return init;
}

export async function uploadLargeFile(
  file: File,
  run: UploadRun,
  resume: ResumeRecord | null,
): Promise<FileShare> {
  run.stage('initializing');
  const resumed = resume ? await resumeSession(resume, run) : null;
  const session = resumed?.session ?? (await startSession(file, run));
  const ids = { file_id: session.file_id, upload_id: session.upload_id };
  try {
    const plan = planParts(file.size, session.part_size);
    if (plan.length !== session.part_count) throw new TransferError('size-mismatch');
    const done = resumed?.done ?? [];
    const todo = missingParts(plan, done);
    checkCancelled(run);
    run.stage('uploading');

    const urls = new PartUrls(
      async (part_numbers) => (await getPartUrls({ ...ids, part_numbers })).urls,
      todo.map((part) => part.partNumber),
    );
    const sent = await sendParts(slicesOf(file, todo), {
      tuning: run.tuning,
      signal: run.signal,
      send: putToPresignedUrls(urls),
      confirmed: confirmedBytes(plan, done),
      onSent: ({ partNumber }, etag) => reportPart({ ...ids, partNumber, etag }),
      onProgress: (loaded) =>
        run.progress({ percent: Math.min(99, percentOf(loaded, file.size)), loaded, total: file.size }),
    });
    checkCancelled(run);
    run.stage('completing');
    const parts = [...done.map(({ partNumber, etag }) => ({ partNumber, etag })), ...sent].sort(
      (a, b) => a.partNumber - b.partNumber,
    );
    const share = await completeMultipart({ ...ids, parts });
    run.resumeStore.forget(session.file_id);
    return share;
  } catch (error) {
    // Only the user's cancel forgets the session; a page going away leaves it to be continued.
    if (run.signal.aborted) {
      run.resumeStore.forget(session.file_id);
      await abortMultipart(ids).catch(() => {});
    }
    throw error;
  }
}
