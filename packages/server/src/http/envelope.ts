/**
 * Success and error envelopes `{ code, message, data, success }` (ARCHITECTURE §5), built in one place.
 */
import type { ErrorEnvelope, SuccessEnvelope } from '@cubby/shared';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './context.ts';
import type { AppError } from './errors.ts';
import { type MessageKey, translate } from './messages.ts';

export function ok<T>(
  c: Context<AppEnv>,
  messageKey: MessageKey,
  data: T,
  status: ContentfulStatusCode = 200,
): Response {
  const body: SuccessEnvelope<T> = {
    code: status,
    message: translate(messageKey, c.get('lang') ?? 'zh'),
    data,
    success: true,
  };
  return c.json(body, status);
}

/**
 * A success envelope with extra top-level fields, for answers whose clients read fields beside
 * `data` (CloudPaste's pagination, its un-enveloped paste answers). Message parameters optional.
 */
export function okWith<T>(
  c: Context<AppEnv>,
  messageKey: MessageKey,
  data: T,
  extra: object,
  status: ContentfulStatusCode = 200,
  params: Record<string, string | number> = {},
): Response {
  return c.json(
    {
      ...extra,
      code: status,
      message: translate(messageKey, c.get('lang') ?? 'zh', params),
      data,
      success: true,
    },
    status,
  );
}

export function renderError(c: Context<AppEnv>, error: AppError): Response {
  const lang = c.get('lang') ?? 'zh';
  const body: ErrorEnvelope = {
    code: error.status,
    message: translate(error.messageKey, lang, error.params),
    data: null,
    success: false,
    error: error.code,
  };
  if (error.details) {
    body.details = Object.fromEntries(
      Object.entries(error.details).map(([field, key]) => [field, translate(key, lang, { field })]),
    );
    const first = Object.values(body.details)[0];
    if (first) body.message = first;
  }
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(body, error.status as ContentfulStatusCode);
}
