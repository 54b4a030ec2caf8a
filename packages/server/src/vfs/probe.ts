/**
 * The storage test behind `POST /api/s3-configs/:id/test` (the storage-configs module calls it): what uploads and downloads will need,
 * tried for real on the configured storage, step by step.
 *
 *   list    list the config's root
 *   write   write a probe object with the driver, then stat it (size)
 *   read    read it back and compare the bytes
 *   cors    presign a PUT and send the browser's preflight (OPTIONS with Origin,
 *           Access-Control-Request-Method: PUT, Access-Control-Request-Headers: content-type)
 *   etag    PUT to the presigned URL with Origin, as a browser does; the answer must allow the origin
 *           and list ETag in Access-Control-Expose-Headers (multipart uploads read part ETags);
 *           then stat the object
 *   delete  remove the probe objects that exist, and check they are gone
 *
 * A failing step never stops the cleanup; steps that cannot run are reported as skipped (failed).
 * Probe objects are `cubby-probe-<random>.txt` at the config root (the local driver reserves
 * `.cubby-` names for itself). Notes and errors are in the request's language; errors name the
 * storage's error code, never a credential.
 */
import { randomBytes } from 'node:crypto';
import { STORAGE_TYPE_OF_DRIVER, type StorageTestStep, type StorageTestStepName } from '@cubby/shared';
import { type Lang, type MessageKey, translate } from '../errors/messages.ts';
import { isStorageError, type StorageDriver } from '../storage/driver.ts';
import { resolveS3ClientSettings, s3ProviderOf } from '../storage/drivers/s3/s3-settings.ts';
import { type DriverPool, type StorageConfigRecord } from './driver-pool.ts';

export interface ProbeOptions {
  lang: Lang;
  /** The origin the browser checks are sent from. */
  origin: string;
  /** Sends a request as a browser would (the server's own URLs may be answered in-process). */
  fetch: (request: Request) => Promise<Response>;
  /** Told about each failed step (without credentials). */
  onFailure?: (step: StorageTestStepName, error: string) => void;
}

export interface ProbeReport {
  success: boolean;
  /** Message key of the summary, and the steps that failed. */
  summary: MessageKey;
  failed: StorageTestStepName[];
  result: {
    steps: StorageTestStep[];
    read: Record<string, unknown>;
    write: Record<string, unknown>;
    cors: Record<string, unknown>;
    frontendSim: Record<string, unknown>;
    connectionInfo: Record<string, unknown>;
  };
}

interface Outcome {
  success: boolean;
  note: string;
  error?: string;
}

const PROBE_TYPE = 'text/plain';
const URL_SECONDS = 300;
const FETCH_TIMEOUT_MS = 20_000;
const READ_CAP = 64 * 1024;
const LIST_SAMPLE = 10;

/** True when a comma-separated header names `token` (case-insensitive) or `*`. */
function headerLists(value: string | null, token: string): boolean {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .some((item) => item === '*' || item === token);
}

/** The bytes of a small stream, at most READ_CAP (a probe is a few dozen bytes). */
async function readSmall(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
      size += value.byteLength;
      if (size > READ_CAP) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks);
}

const streamOf = (bytes: Uint8Array): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

/** What went wrong, for an administrator: a translated kind plus the storage's own code. */
function describeError(error: unknown, lang: Lang): string {
  if (isStorageError(error) && error.reason) {
    return `${translate(`storage.reason.${error.reason}`, lang)} (${error.message})`;
  }
  if (isStorageError(error)) {
    const key: MessageKey =
      error.code === 'UNAVAILABLE'
        ? 'storage.error.unavailable'
        : error.code === 'FORBIDDEN'
          ? 'storage.error.forbidden'
          : 'storage.error.other';
    return `${translate(key, lang)} (${error.message})`;
  }
  const e = error as { name?: string; cause?: { code?: string; name?: string } } | null;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return `${translate('storage.error.network', lang)} (timeout)`;
  }
  if (error instanceof TypeError && e?.cause) {
    return `${translate('storage.error.network', lang)} (${e.cause.code ?? e.cause.name ?? 'fetch failed'})`;
  }
  if (error instanceof RangeError) return `${translate('storage.error.other', lang)} (${error.message})`;
  return `${translate('storage.error.other', lang)} (${e?.name ?? 'Error'})`;
}

function connectionInfo(config: StorageConfigRecord): Record<string, unknown> {
  const common = { provider: config.provider_type, signatureExpiresIn: config.signature_expires_in };
  if (config.driver === 'local') return { ...common, rootPath: config.settings.root_path };
  if (config.driver !== 's3') {
    // The plain settings (never a credential: those are sealed apart).
    return { ...common, storageType: STORAGE_TYPE_OF_DRIVER[config.driver], ...config.settings };
  }
  const s = config.settings;
  let resolved = { endpoint: s.endpoint_url || null, region: s.region, pathStyle: s.path_style };
  try {
    const sdk = resolveS3ClientSettings({
      endpoint: s.endpoint_url,
      region: s.region,
      pathStyle: s.path_style,
      provider: s3ProviderOf(config.provider_type),
    });
    resolved = { endpoint: sdk.endpoint ?? null, region: sdk.region, pathStyle: sdk.forcePathStyle };
  } catch {
    // Reported by the list step, which builds the driver with the same settings.
  }
  return {
    ...common,
    bucket: s.bucket_name,
    ...resolved,
    defaultFolder: s.default_folder,
    customHost: s.custom_host,
  };
}

/** Runs every step on `config`'s storage, its driver from the pool (built here, so a failure to build is the list step's). */
export async function probeStorage(
  config: StorageConfigRecord,
  drivers: Pick<DriverPool, 'driver'>,
  options: ProbeOptions,
): Promise<ProbeReport> {
  const getDriver = () => drivers.driver(config);
  const { lang, origin } = options;
  const t = (key: MessageKey, params: Record<string, string | number> = {}) => translate(key, lang, params);
  const steps: StorageTestStep[] = [];
  const run = async (name: StorageTestStepName, body: () => Promise<Outcome>): Promise<StorageTestStep> => {
    const started = performance.now();
    const outcome = await body();
    const step: StorageTestStep = {
      name,
      success: outcome.success,
      duration_ms: Math.round(performance.now() - started),
      note: outcome.note,
      ...(outcome.error ? { error: outcome.error } : {}),
    };
    if (!step.success) options.onFailure?.(name, step.error ?? step.note);
    steps.push(step);
    return step;
  };
  const failure = (note: string, error: unknown): Outcome => ({
    success: false,
    note,
    error: describeError(error, lang),
  });
  const timed = (request: Request) =>
    options.fetch(new Request(request, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }));

  const id = randomBytes(8).toString('hex');
  const probePath = `/cubby-probe-${id}.txt`;
  const browserPath = `/cubby-probe-${id}-browser.txt`;
  const content = Buffer.from(`Cubby storage test ${id}\n`);

  let driver: StorageDriver | undefined;
  let unreachable = false;
  /** Why the later steps are skipped once `unreachable`: the server could not be reached, or signing in failed. */
  let skipNote: MessageKey = 'storage.probe.skipped_unreachable';
  let written = false;
  let browserWritten = false;
  const listing: Record<string, unknown> = { objectCount: 0, prefix: '/', firstObjects: [] };
  const cors: Record<string, unknown> = { uploadSupported: false };

  // What to check when the root cannot be listed: a bucket and region on S3, an address elsewhere.
  const listFailed = t(
    config.driver === 's3' || config.driver === 'local'
      ? 'storage.probe.list_failed'
      : 'storage.probe.list_failed_server',
  );
  const list = await run('list', async () => {
    try {
      driver = await getDriver();
    } catch (error) {
      unreachable = true;
      if (isStorageError(error)) return failure(listFailed, error);
      // Building an S3 driver only fails otherwise when its sealed credentials do not open.
      return { success: false, note: listFailed, error: t('storage.secrets_unreadable') };
    }
    try {
      const page = await driver.list('/', { limit: LIST_SAMPLE });
      const count = `${page.entries.length}${page.cursor ? '+' : ''}`;
      listing.objectCount = page.entries.length;
      listing.firstObjects = page.entries.slice(0, 5).map((entry) => ({
        key: entry.path,
        size: entry.size,
        isDirectory: entry.isDirectory,
        lastModified: entry.modified?.toISOString() ?? null,
      }));
      return { success: true, note: t('storage.probe.list_ok', { count }) };
    } catch (error) {
      unreachable = isStorageError(error, 'UNAVAILABLE');
      // A refused sign-in (or a host key that is not the pinned one) fails every later step the same
      // way: they are skipped rather than signing in again with what was refused.
      if (isStorageError(error, 'FORBIDDEN') && (error.reason === 'auth' || error.reason === 'host_key')) {
        unreachable = true;
        skipNote = 'storage.probe.skipped_no_sign_in';
      }
      return failure(listFailed, error);
    }
  });

  const skipped = (): Outcome => ({ success: false, note: t(skipNote) });

  const write = await run('write', async () => {
    if (unreachable || !driver) return skipped();
    try {
      await driver.write(probePath, streamOf(content), { size: content.length, contentType: PROBE_TYPE });
      written = true;
      const entry = await driver.stat(probePath);
      if (entry.size !== content.length) {
        return {
          success: false,
          note: t('storage.probe.write_size', { actual: entry.size, expected: content.length }),
        };
      }
      return { success: true, note: t('storage.probe.write_ok', { path: probePath, size: content.length }) };
    } catch (error) {
      return failure(t('storage.probe.write_failed', { path: probePath }), error);
    }
  });

  await run('read', async () => {
    if (unreachable || !driver) return skipped();
    if (!written) return { success: false, note: t('storage.probe.skipped_no_write') };
    try {
      const result = await driver.read(probePath);
      const bytes = await readSmall(result.body);
      if (!bytes.equals(content)) return { success: false, note: t('storage.probe.read_mismatch') };
      return { success: true, note: t('storage.probe.read_ok', { size: bytes.length }) };
    } catch (error) {
      return failure(t('storage.probe.read_failed'), error);
    }
  });

  // The browser's view: a presigned PUT, its preflight, then the upload itself.
  let uploadUrl: URL | undefined;
  let presignError: unknown;
  if (!unreachable && driver?.presignPut) {
    try {
      uploadUrl = await driver.presignPut(browserPath, {
        expiresIn: URL_SECONDS,
        contentType: PROBE_TYPE,
        size: content.length,
      });
    } catch (error) {
      presignError = error;
    }
  }
  // Without presigned uploads the browser sends files to this server, which relays them: nothing to check.
  const relayed = driver !== undefined && !driver.capabilities.presignPut;
  const noUpload = (): Outcome =>
    relayed
      ? { success: true, note: t('storage.probe.relay_uploads') }
      : unreachable
        ? skipped()
        : presignError
          ? failure(t('storage.probe.no_browser_upload'), presignError)
          : { success: false, note: t('storage.probe.no_browser_upload') };

  const corsStep = await run('cors', async () => {
    if (!uploadUrl) return noUpload();
    let res: Response;
    try {
      res = await timed(
        new Request(uploadUrl, {
          method: 'OPTIONS',
          headers: {
            Origin: origin,
            'Access-Control-Request-Method': 'PUT',
            'Access-Control-Request-Headers': 'content-type',
          },
        }),
      );
      await res.arrayBuffer();
    } catch (error) {
      return failure(t('storage.probe.request_failed'), error);
    }
    const h = res.headers;
    Object.assign(cors, {
      statusCode: res.status,
      allowOrigin: h.get('access-control-allow-origin'),
      allowMethods: h.get('access-control-allow-methods'),
      allowHeaders: h.get('access-control-allow-headers'),
      maxAge: h.get('access-control-max-age'),
    });
    const allowOrigin = h.get('access-control-allow-origin');
    const problems = [
      res.status >= 200 && res.status < 300 ? null : `status ${res.status}`,
      allowOrigin === '*' || allowOrigin === origin
        ? null
        : `Access-Control-Allow-Origin: ${allowOrigin ?? '(none)'}`,
      headerLists(h.get('access-control-allow-methods'), 'put')
        ? null
        : `Access-Control-Allow-Methods: ${h.get('access-control-allow-methods') ?? '(none)'}`,
      headerLists(h.get('access-control-allow-headers'), 'content-type')
        ? null
        : `Access-Control-Allow-Headers: ${h.get('access-control-allow-headers') ?? '(none)'}`,
    ].filter((problem) => problem !== null);
    if (problems.length > 0) {
      return {
        success: false,
        note: t('storage.probe.cors_failed', { status: res.status, origin }),
        error: problems.join('; '),
      };
    }
    return { success: true, note: t('storage.probe.cors_ok', { origin }) };
  });

  const etagStep = await run('etag', async () => {
    if (!uploadUrl || !driver) return noUpload();
    let res: Response;
    try {
      res = await timed(
        new Request(uploadUrl, {
          method: 'PUT',
          headers: { Origin: origin, 'Content-Type': PROBE_TYPE },
          body: content,
        }),
      );
      await res.arrayBuffer();
    } catch (error) {
      return failure(t('storage.probe.request_failed'), error);
    }
    const h = res.headers;
    cors.exposeHeaders = h.get('access-control-expose-headers');
    if (res.status < 200 || res.status >= 300) {
      return { success: false, note: t('storage.probe.etag_put_failed', { status: res.status }) };
    }
    browserWritten = true;
    const allowOrigin = h.get('access-control-allow-origin');
    if (allowOrigin !== '*' && allowOrigin !== origin) {
      return {
        success: false,
        note: t('storage.probe.etag_no_origin', { origin }),
        error: `Access-Control-Allow-Origin: ${allowOrigin ?? '(none)'}`,
      };
    }
    if (!headerLists(h.get('access-control-expose-headers'), 'etag')) {
      return {
        success: false,
        note: t('storage.probe.etag_not_exposed'),
        error: `Access-Control-Expose-Headers: ${h.get('access-control-expose-headers') ?? '(none)'}`,
      };
    }
    if (!h.get('etag')) return { success: false, note: t('storage.probe.etag_missing') };
    try {
      const entry = await driver.stat(browserPath);
      if (entry.size !== content.length) return { success: false, note: t('storage.probe.etag_not_stored') };
    } catch (error) {
      return failure(t('storage.probe.etag_not_stored'), error);
    }
    return { success: true, note: t('storage.probe.etag_ok', { status: res.status }) };
  });
  cors.uploadSupported = corsStep.success && etagStep.success;

  const remove = await run('delete', async () => {
    const targets = [...(written ? [probePath] : []), ...(browserWritten ? [browserPath] : [])];
    if (!driver || targets.length === 0) {
      return unreachable ? skipped() : { success: true, note: t('storage.probe.nothing_to_delete') };
    }
    for (const target of targets) {
      try {
        await driver.remove(target);
        const gone = await driver.stat(target).then(
          () => false,
          (error: unknown) => isStorageError(error, 'NOT_FOUND'),
        );
        if (!gone) return { success: false, note: t('storage.probe.delete_failed', { path: target }) };
      } catch (error) {
        if (isStorageError(error, 'NOT_FOUND')) continue;
        return failure(t('storage.probe.delete_failed', { path: target }), error);
      }
    }
    return { success: true, note: t('storage.probe.delete_ok') };
  });

  const failed = steps.filter((step) => !step.success).map((step) => step.name);
  const storageWorks = ['list', 'write', 'read', 'delete'].every(
    (name) => !failed.includes(name as StorageTestStepName),
  );
  const summary: MessageKey =
    failed.length === 0 ? 'storage.test_ok' : storageWorks ? 'storage.test_partial' : 'storage.test_failed';
  const bare = ({ success, note, error }: StorageTestStep) => ({
    success,
    note,
    ...(error ? { error } : {}),
  });

  return {
    success: failed.length === 0,
    summary,
    failed,
    result: {
      steps,
      read: { ...bare(list), ...listing },
      write: {
        ...bare(write),
        uploadTime: write.duration_ms,
        testFile: probePath,
        cleaned: remove.success,
      },
      cors: { ...bare(corsStep), ...cors },
      frontendSim: {
        ...bare(etagStep),
        steps: { step1: corsStep, step2: etagStep },
        testFile: browserPath,
        totalDuration: corsStep.duration_ms + etagStep.duration_ms,
      },
      connectionInfo: connectionInfo(config),
    },
  };
}
