/**
 * The one place errors become responses: AppErrors render as their envelope; anything else is a bug,
 * logged with its stack and the request id, and answered with a generic 500.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from './context.ts';
import { renderError } from './envelope.ts';
import { AppError, badRequest, internal, notFound, payloadTooLarge } from '../errors/app-error.ts';

export function handleError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof AppError) return renderError(c, error);
  if (error instanceof HTTPException && error.status < 500) {
    if (error.status === 413) return renderError(c, payloadTooLarge('1 MiB'));
    if (error.status === 404) return renderError(c, notFound('common.not_found_route'));
    return renderError(c, badRequest('common.validation', { field: 'request' }));
  }
  c.get('log')?.error({ err: error }, 'unhandled error');
  return renderError(c, internal('common.internal'));
}

export function handleNotFound(c: Context<AppEnv>): Response {
  return renderError(c, notFound('common.not_found_route'));
}
