/**
 * Streams a multipart/form-data body (busboy): text fields are collected, and the one file part
 * (field `file`) is handed to `onFile` as a Node stream while the body is still arriving, with the
 * fields sent before it. Nothing is buffered beyond busboy's small window. Fields sent after the file
 * are reported by name, so the caller can refuse those that had to be known earlier.
 *
 * Any failure (a malformed body, a second file, the client going away, or `onFile` failing) stops
 * reading the body, breaks the file stream so a write in progress fails and cleans up, and rejects
 * once `onFile` has settled.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { AppError, badRequest } from '../../errors/app-error.ts';

export interface UploadedFile {
  /** The name the client gave (UTF-8, `%22` read as `"`), only its last segment unless `wholeFilename`. */
  filename: string;
  stream: Readable;
}

export interface ReadForm<T> {
  fields: Map<string, string>;
  /** Names of the fields that arrived after the file part. */
  fieldsAfterFile: string[];
  file: T;
}

const LIMITS = {
  fieldNameSize: 100,
  fieldSize: 64 * 1024,
  fields: 30,
  files: 1,
  parts: 40,
  headerPairs: 50,
};

/** Upper bound of what the fields and part headers of an upload form add to the file's bytes. */
export const FORM_OVERHEAD_BYTES = LIMITS.fields * (LIMITS.fieldSize + 1024) + 64 * 1024;

export function readUploadForm<T>(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  onFile: (file: UploadedFile, fieldsBefore: Map<string, string>) => Promise<T>,
  options: { wholeFilename?: boolean } = {},
): Promise<ReadForm<T>> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: LIMITS,
      // Without it busboy keeps only the part after the last `/` or `\`.
      preservePath: options.wholeFilename === true,
    });
  } catch {
    return Promise.reject(badRequest('uploads.not_multipart_form'));
  }
  const source = Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);
  const fields = new Map<string, string>();
  const fieldsAfterFile: string[] = [];
  let fileStream: Readable | undefined;
  let handled: Promise<T> | undefined;

  return new Promise<ReadForm<T>>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      // A write in progress sees its source close early and fails (and cleans up).
      fileStream?.destroy();
      const reason = error instanceof AppError ? error : badRequest('uploads.invalid_form');
      // Let the file handler clean up before the caller answers.
      const done = (): void => reject(reason);
      if (handled) handled.then(done, done);
      else done();
    };

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) return fail(badRequest('uploads.invalid_form'));
      if (handled) fieldsAfterFile.push(name);
      fields.set(name, value);
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || handled) {
        stream.resume();
        return;
      }
      fileStream = stream;
      // Browsers send `"` in a file name as %22 (WHATWG multipart/form-data encoding).
      const filename = (info.filename ?? '').replace(/%22/g, '"');
      handled = onFile({ filename, stream }, new Map(fields));
      handled.catch(fail);
    });
    parser.on('filesLimit', () => fail(badRequest('uploads.one_file')));
    parser.on('fieldsLimit', () => fail(badRequest('uploads.invalid_form')));
    parser.on('partsLimit', () => fail(badRequest('uploads.invalid_form')));
    parser.on('error', fail);
    source.on('error', fail);
    parser.on('close', () => {
      if (settled) return;
      if (!handled) return fail(badRequest('uploads.file_required'));
      handled.then((file) => {
        if (settled) return;
        settled = true;
        resolve({ fields, fieldsAfterFile, file });
      }, fail);
    });
    source.pipe(parser);
  });
}
