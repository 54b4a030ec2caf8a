/**
 * Inputs of the upload routes. The share fields arrive as JSON (numbers, booleans) or as form fields
 * (strings), so numbers and flags accept both spellings; "" and null mean "not given".
 */
import { maxViewsSchema, slugSchema } from '@cubby/shared';
import { z } from 'zod';
import { MULTIPART_LIMITS } from '../../vfs/objects.ts';

/** Longest `path` (sub-folder) accepted, in characters. */
export const MAX_FOLDER_CHARS = 512;
/** Longest file name kept, in characters. */
export const MAX_FILENAME_CHARS = 255;
/** expires_in is in hours; 100 years is plenty and keeps dates valid. */
export const MAX_EXPIRES_HOURS = 876_000;

const blankToUndefined = (value: unknown): unknown => (value === '' || value === null ? undefined : value);

/** A form string of digits (optionally with a fraction) as a number; anything else as it is. */
const numeric = (value: unknown): unknown => {
  const v = blankToUndefined(value);
  return typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
};

const flag = (value: unknown): unknown => {
  const v = blankToUndefined(value);
  if (v === true || v === 'true' || v === '1' || v === 1) return 1;
  if (v === false || v === 'false' || v === '0' || v === 0) return 0;
  return v;
};

/** A 0/1 flag; booleans and their spellings as strings are accepted. */
const optionalFlag = (message: string) =>
  z.preprocess(flag, z.union([z.literal(0), z.literal(1)], { error: message }).optional());

const optionalString = (max: number, message: string) =>
  z.preprocess(blankToUndefined, z.string({ error: message }).max(max, { message }).optional());

export const byteCountSchema = z
  .number({ error: 'size_invalid' })
  .int({ message: 'size_invalid' })
  .min(0, { message: 'size_invalid' })
  .max(Number.MAX_SAFE_INTEGER, { message: 'size_invalid' });

export const filenameSchema = z
  .string({ error: 'filename_required' })
  .trim()
  .min(1, { message: 'filename_required' })
  .max(4096, { message: 'filename_too_long' });

const idSchema = (message: string) => z.string({ error: message }).trim().min(1, { message }).max(200);

/** The fields every kind of upload may set on its share. */
export const shareFields = {
  slug: z.preprocess(blankToUndefined, slugSchema.optional()),
  remark: optionalString(500, 'remark_too_long'),
  password: optionalString(200, 'password_too_long'),
  expires_in: z.preprocess(
    numeric,
    z
      .number({ error: 'expires_in_invalid' })
      .min(0, { message: 'expires_in_invalid' })
      .max(MAX_EXPIRES_HOURS, { message: 'expires_in_invalid' })
      .optional(),
  ),
  max_views: z.preprocess(numeric, maxViewsSchema.optional()),
  use_proxy: optionalFlag('use_proxy_invalid'),
};

/** Where a new upload goes. */
const placementFields = {
  s3_config_id: z.preprocess(blankToUndefined, z.string().max(200).optional()),
  path: optionalString(MAX_FOLDER_CHARS, 'invalid_path'),
};

export const shareFieldsSchema = z.object(shareFields);
export type ShareFields = z.output<typeof shareFieldsSchema>;

/** The form fields of `POST /api/upload` (all strings on the wire). */
export const formFieldsSchema = z.object({ ...placementFields, ...shareFields });
/** Form fields that decide where the bytes go, so they must come before the file part. */
export const PLACEMENT_FIELDS = ['s3_config_id', 'path'] as const;

/** The query of `PUT /api/upload-direct/:filename`: the form fields, and CloudPaste's two switches. */
export const directUploadSchema = formFieldsSchema.extend({
  /** Keep the file's own name as the last segment of its storage key. */
  original_filename: optionalFlag('original_filename_invalid'),
  /** Replace the share holding `slug`, when the caller created it. */
  override: optionalFlag('override_invalid'),
});
export type DirectUploadInput = z.output<typeof directUploadSchema>;

export const presignSchema = z.object({
  ...placementFields,
  ...shareFields,
  filename: filenameSchema,
  size: z.preprocess(numeric, byteCountSchema),
});
export type PresignInput = z.output<typeof presignSchema>;

export const commitSchema = z.object({
  ...shareFields,
  file_id: idSchema('file_id_required'),
  etag: z.string().max(200).nullish(),
  size: z.preprocess(numeric, byteCountSchema.optional()),
});
export type CommitInput = z.output<typeof commitSchema>;

export const multipartInitSchema = presignSchema.extend({
  part_size: z.preprocess(numeric, byteCountSchema.optional()),
});
export type MultipartInitInput = z.output<typeof multipartInitSchema>;

const sessionFields = {
  file_id: idSchema('file_id_required'),
  upload_id: idSchema('upload_id_required'),
};
export const sessionSchema = z.object(sessionFields);

const partNumberSchema = z.preprocess(
  numeric,
  z
    .number({ error: 'part_number_invalid' })
    .int({ message: 'part_number_invalid' })
    .min(1, { message: 'part_number_invalid' })
    .max(MULTIPART_LIMITS.maxParts, { message: 'part_number_invalid' }),
);

export const partUrlsSchema = z.object({
  ...sessionFields,
  part_numbers: z
    .array(partNumberSchema, { error: 'parts_invalid' })
    .min(1, { message: 'parts_invalid' })
    .max(10_000, { message: 'parts_invalid' }),
});

export const partRecordSchema = z.object({
  ...sessionFields,
  partNumber: partNumberSchema,
  etag: z.string({ error: 'parts_invalid' }).trim().min(1, { message: 'parts_invalid' }).max(200),
});

export const completeSchema = z.object({
  ...sessionFields,
  parts: z
    .array(
      z.object({
        partNumber: partNumberSchema,
        etag: z.string({ error: 'parts_invalid' }).min(1, { message: 'parts_invalid' }).max(200),
      }),
      { error: 'parts_invalid' },
    )
    .max(10_000, { message: 'parts_invalid' })
    .optional(),
});
export type CompleteInput = z.output<typeof completeSchema>;

const urlMetadata = z
  .object({
    filename: z.preprocess(blankToUndefined, z.string().max(4096).optional()),
    contentType: z.string().max(200).nullish(),
    size: z.preprocess(numeric, byteCountSchema.optional()),
  })
  .nullish();

const urlFields = {
  ...placementFields,
  ...shareFields,
  url: z.string({ error: 'url_required' }).trim().min(1, { message: 'url_required' }).max(8192),
  metadata: urlMetadata,
  filename: z.preprocess(blankToUndefined, z.string().max(4096).optional()),
  size: z.preprocess(numeric, byteCountSchema.optional()),
};

export const urlPresignSchema = z.object(urlFields);
export type UrlPresignInput = z.output<typeof urlPresignSchema>;

export const urlMultipartInitSchema = z.object({
  ...urlFields,
  part_size: z.preprocess(numeric, byteCountSchema.optional()),
  total_size: z.preprocess(numeric, byteCountSchema.optional()),
});
export type UrlMultipartInitInput = z.output<typeof urlMultipartInitSchema>;

export const fileIdSchema = z.object({ file_id: idSchema('file_id_required') });
