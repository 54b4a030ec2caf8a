/**
 * Reads and validates a JSON body. Malformed JSON is a 400, never a 500; zod issues become field
 * details whose messages come from the message catalogue.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './context.ts';
import { AppError } from './errors.ts';
import { isMessageKey, type MessageKey } from './messages.ts';

export async function readJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AppError(400, 'VALIDATION_FAILED', 'common.invalid_json');
    }
  }
  return validate(schema, raw);
}

export function validate<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const details: Record<string, MessageKey> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'body';
    const key = `validation.${issue.message}`;
    details[field] ??= isMessageKey(key) ? key : 'common.validation';
  }
  throw new AppError(
    400,
    'VALIDATION_FAILED',
    'common.validation',
    { field: Object.keys(details)[0] ?? '' },
    details,
  );
}
