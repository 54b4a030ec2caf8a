/**
 * The upload request dialog's fields as typed (text, sizes in MB) and the body they make for
 * POST / PUT /api/upload-requests (docs/api.md "Upload requests"): empty numbers are 0 (no limit),
 * types are split on commas and spaces, and on an edit an empty password keeps the one there is.
 * A request goes into a folder (`target_path`) or a new bundle (`bundle: true`), chosen once.
 */
import type { UploadRequestInfo } from '@cubby/shared';

export interface RequestForm {
  into: 'folder' | 'bundle';
  target_path: string;
  message: string;
  password: string;
  expires_in: string;
  max_files: string;
  max_file_size_mb: string;
  max_total_size_mb: string;
  allowed_types: string;
  show_uploads: boolean;
  subfolder_per_upload: boolean;
}

const MB = 1024 * 1024;

const mb = (bytes: number) => (bytes > 0 ? String(Math.round((bytes / MB) * 100) / 100) : '');

export function toForm(request?: UploadRequestInfo): RequestForm {
  return {
    into: request && request.target_path === null ? 'bundle' : 'folder',
    target_path: request?.target_path ?? '',
    message: request?.message ?? '',
    password: '',
    expires_in: '',
    max_files: request && request.max_files > 0 ? String(request.max_files) : '',
    max_file_size_mb: request ? mb(request.max_file_size) : '',
    max_total_size_mb: request ? mb(request.max_total_size) : '',
    allowed_types: request?.allowed_types.join(', ') ?? '',
    show_uploads: request?.show_uploads ?? false,
    subfolder_per_upload: request?.subfolder_per_upload ?? false,
  };
}

const count = (text: string) => Math.max(0, Math.floor(Number(text) || 0));
const bytes = (text: string) => Math.max(0, Math.round((Number(text) || 0) * MB));

export function requestBody(form: RequestForm, editing: boolean): Record<string, unknown> {
  const folder = form.into === 'folder';
  return {
    // Where the files go is chosen when the request is made (the server refuses a switch).
    ...(folder ? { target_path: form.target_path.trim() } : editing ? {} : { bundle: true }),
    message: form.message.trim() || null,
    ...(form.password !== '' || !editing ? { password: form.password || null } : {}),
    // On an edit an empty expiry leaves it as it is; a new request without one never expires.
    ...(form.expires_in !== '' || !editing ? { expires_in: count(form.expires_in) || null } : {}),
    max_files: count(form.max_files),
    max_file_size: bytes(form.max_file_size_mb),
    max_total_size: bytes(form.max_total_size_mb),
    allowed_types: form.allowed_types.split(/[\s,]+/).filter(Boolean),
    show_uploads: form.show_uploads,
    ...(folder ? { subfolder_per_upload: form.subfolder_per_upload } : {}),
  };
}
