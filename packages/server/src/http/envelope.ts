/**
 * Success and error envelopes `{ code, message, data, success }` (docs/architecture.md, "The HTTP edge"),
 * built in one place.
 */
import type { ErrorEnvelope, SuccessEnvelope } from '@cubby/shared';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { answer } from './answer.ts';
import type { AppEnv } from './context.ts';
import type { AppError } from '../errors/app-error.ts';
import { type MessageKey, translate } from '../errors/messages.ts';

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
  return json(c, body, status);
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** A JSON answer with the request's common headers (http/answer.ts). */
export function json(c: Context<AppEnv>, body: unknown, status = 200, headers?: Record<string, string>) {
  return answer(c, JSON.stringify(body), status, headers ? { ...JSON_TYPE, ...headers } : JSON_TYPE);
}

/**
 * The success envelope of `data` whose field `field` is already JSON (`fieldJson`, bytes kept from an
 * earlier answer): the same bytes `ok(c, key, {...data, [field]: …})` would send, without
 * serialising that field again.
 */
export function okWithJsonField(
  c: Context<AppEnv>,
  messageKey: MessageKey,
  data: Record<string, unknown>,
  field: string,
  fieldJson: Uint8Array<ArrayBuffer>,
): Response {
  const head = JSON.stringify({ code: 200, message: translate(messageKey, c.get('lang') ?? 'zh'), data });
  // head ends with the `}}` that close data and the envelope; the field goes before them.
  const open = `${head.slice(0, -2)}${Object.keys(data).length > 0 ? ',' : ''}${JSON.stringify(field)}:`;
  const body = Buffer.concat([Buffer.from(open), fieldJson, Buffer.from('},"success":true}')]);
  return answer(c, body, 200, JSON_TYPE);
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
  return json(
    c,
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
    data: error.data,
    success: false,
    error: error.code,
  };
  if (error.details) {
    body.details = Object.fromEntries(
      // The error's params (a custom rule's, e.g. a reserved prefix) fill the field messages too.
      Object.entries(error.details).map(([field, key]) => [
        field,
        translate(key, lang, { ...error.params, field }),
      ]),
    );
    const first = Object.values(body.details)[0];
    if (first) body.message = first;
  }
  return json(c, body, error.status, error.headers);
}
