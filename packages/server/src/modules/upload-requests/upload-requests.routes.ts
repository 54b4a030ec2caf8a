/**
 * Upload requests (docs/api.md "Upload requests"): /api/upload-requests (their owners: the admin,
 * members, keys with the mount permission for a folder request or the file permission for one into
 * a bundle, checked by the service) and /api/public/upload-requests/:token (anyone with
 * the link: what they may know, the password, and the streamed form upload). Audit targets name a
 * request by its id, never by its token (the token opens it).
 */
import {
  type Principal,
  UPLOAD_REQUEST_MAX_TYPES,
  UPLOAD_REQUEST_MESSAGE_MAX_CHARS,
  UPLOAD_REQUEST_TYPE_MAX_CHARS,
} from '@cubby/shared';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { noteAudit, route } from '../../http/route-docs.ts';
import { validate } from '../../http/validate.ts';
import { readUploadForm } from '../uploads/upload-form.ts';
import type { UploadRequestInput, UploadRequestsService } from './upload-requests.service.ts';

/** The header (or form field, before the file) carrying the access token a right password gave. */
export const ACCESS_HEADER = 'X-Upload-Request-Token';

const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** Both for a new request and for changes (PUT: every field optional, null clears a password or expiry). */
const requestFields = z.object({
  target_path: z.string().max(4096).optional(),
  bundle: z.boolean().optional(),
  password: z.string().max(200).nullish(),
  expires_in: z
    .number()
    .min(0)
    .max(24 * 365 * 10)
    .nullish(),
  max_files: z.number().int().min(0).max(1_000_000).optional(),
  max_file_size: bytes.optional(),
  max_total_size: bytes.optional(),
  allowed_types: z
    .array(z.string().max(UPLOAD_REQUEST_TYPE_MAX_CHARS))
    .max(UPLOAD_REQUEST_MAX_TYPES)
    .optional(),
  message: z.string().max(UPLOAD_REQUEST_MESSAGE_MAX_CHARS).nullish(),
  show_uploads: z.boolean().optional(),
  subfolder_per_upload: z.boolean().optional(),
});
const verifyBody = z.object({ password: z.string().max(200).optional() });
/** Fields of the upload form sent before the file. */
const formFields = z.object({
  size: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  batch: z.string().max(100).optional(),
  access_token: z.string().max(6000).optional(),
});

export function uploadRequestsRoutes(requests: UploadRequestsService, options: { config: Config }) {
  const app = new Hono<AppEnv>();
  const tag = 'Upload requests';
  const principal = (c: Context<AppEnv>): Principal => c.get('principal')!;
  const token = (c: Context<AppEnv>): string => c.req.param('token')!;
  const origin = (c: Context<AppEnv>) => publicOrigin(c, options.config);
  const access = (c: Context<AppEnv>) => c.req.header(ACCESS_HEADER);

  app.post(
    '/upload-requests',
    route(
      {
        tag,
        summary:
          'Creates an upload request: a link strangers upload files into a folder you may write or a new bundle',
        description:
          'Exactly one of `target_path` (an existing folder the caller may write, 403 otherwise; keys need ' +
          'the mount permission) and `bundle: true` (a new empty bundle of the caller, each upload a file ' +
          'share appended to it; keys need the file permission). `expires_in` is ' +
          'in hours (0 or null: never); `max_files`, `max_file_size`, `max_total_size` are 0 for no limit; ' +
          '`allowed_types` lists extensions (`.pdf`) and MIME patterns (`image/*`). Answers `token` and ' +
          '`url` (the uploader’s page), and for a bundle `bundle_slug` and `bundle_url`.',
        auth: 'principal',
        body: requestFields,
        audit: { action: 'upload_request.create' },
      },
      async (c, { body }) => {
        const row = await requests.create(principal(c), body as UploadRequestInput);
        noteAudit(c, { target: row.id });
        return ok(c, 'upload_requests.created', await requests.info(row, origin(c)), 201);
      },
    ),
  );

  app.get(
    '/upload-requests',
    route(
      {
        tag,
        summary: "Lists upload requests with their counts: the caller's own (the admin: everyone's)",
        auth: 'principal',
      },
      async (c) => {
        const rows = await requests.list(principal(c));
        return ok(c, 'upload_requests.listed', {
          items: await Promise.all(rows.map((row) => requests.info(row, origin(c)))),
        });
      },
    ),
  );

  app.get(
    '/upload-requests/:token',
    route(
      {
        tag,
        summary: 'One upload request with the files it received (its owner or the admin)',
        auth: 'principal',
      },
      async (c) => {
        const row = await requests.managed(principal(c), token(c));
        return ok(c, 'upload_requests.got', await requests.info(row, origin(c), true));
      },
    ),
  );

  app.put(
    '/upload-requests/:token',
    route(
      {
        tag,
        summary: 'Changes an upload request (its owner or the admin); fields as when creating',
        auth: 'principal',
        body: requestFields,
        audit: { action: 'upload_request.update' },
      },
      async (c, { body }) => {
        const row = await requests.update(principal(c), token(c), body as UploadRequestInput);
        noteAudit(c, { target: row.id });
        return ok(c, 'upload_requests.updated', await requests.info(row, origin(c)));
      },
    ),
  );

  app.delete(
    '/upload-requests/:token',
    route(
      {
        tag,
        summary: 'Revokes an upload request: later uploads answer 410 at once; received files stay',
        auth: 'principal',
        audit: { action: 'upload_request.revoke' },
      },
      async (c) => {
        const row = await requests.revoke(principal(c), token(c));
        noteAudit(c, { target: row.id });
        return ok(c, 'upload_requests.revoked_ok', await requests.info(row, origin(c)));
      },
    ),
  );

  app.get(
    '/public/upload-requests/:token',
    route(
      {
        tag,
        summary: 'What an uploader may know of a request: message, limits, what is left, expiry',
        description:
          'The message and (with `show_uploads`) the files already sent are shown once the password, if ' +
          `any, was given: send the access token of \`verify\` in \`${ACCESS_HEADER}\`. 404 unknown, 410 ` +
          'expired or revoked.',
        auth: 'none',
      },
      async (c) => ok(c, 'upload_requests.got', await requests.publicInfo(token(c), access(c), origin(c))),
    ),
  );

  app.post(
    '/public/upload-requests/:token/verify',
    route(
      {
        tag,
        summary: 'Checks the password of an upload request; answers a short-lived access token',
        description: 'Guesses count under the share-password rate limits (429).',
        auth: 'none',
        body: verifyBody,
      },
      async (c, { body }) =>
        ok(
          c,
          'upload_requests.verified',
          await requests.verify(token(c), body.password ?? '', c.get('clientIp')),
        ),
    ),
  );

  app.post(
    '/public/upload-requests/:token/files',
    route(
      {
        tag,
        summary: 'Uploads one file into a request (multipart form: `size`, `batch` before `file`; streamed)',
        description:
          'The name is made safe and never overwrites (`a (1).txt`); its type is checked against ' +
          '`allowed_types` before the bytes flow; 413 past `max_file_size` (nothing kept) or when the ' +
          'total is full, 409 when every file slot is taken, 415 for a type not accepted, 410 expired ' +
          `or revoked, 401 without the access token of a protected request (\`${ACCESS_HEADER}\`). ` +
          '`batch` (answered by the first file) keeps the files of one upload in its subfolder.',
        auth: 'none',
        upload: 'multipart',
        audit: { action: 'upload_request.upload' },
      },
      async (c) => {
        const form = await readUploadForm(
          c.req.raw.body ?? new ReadableStream(),
          c.req.header('Content-Type') ?? '',
          async (file, before) => {
            const fields = validate(formFields, Object.fromEntries(before));
            return requests.acceptUpload(token(c), {
              name: file.filename,
              stream: file.stream,
              size: fields.size,
              batch: fields.batch,
              access: access(c) ?? fields.access_token,
              clientIp: c.get('clientIp'),
            });
          },
          { wholeFilename: true },
        );
        const { request_id, ...accepted } = form.file;
        noteAudit(c, { target: request_id, details: { name: accepted.name, size: accepted.size } });
        return ok(c, 'upload_requests.uploaded', accepted, 201);
      },
    ),
  );

  return app;
}
