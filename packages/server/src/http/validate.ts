/**
 * Reads and validates a JSON body. Malformed JSON is a 400, never a 500; zod issues become field
 * details whose messages come from the message catalogue. Every string that reaches a schema —
 * values and keys, at any depth — must be well-formed text: JSON's `\ud800` escapes and URL escapes
 * can carry lone surrogates, which blow up in encoders or land in storage keys, and NUL, which
 * PostgreSQL cannot store in text.
 */
import { isWellFormed } from '@cubby/shared';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './context.ts';
import { badRequest, invalidFields } from '../errors/app-error.ts';
import { isMessageKey, type MessageKey } from '../errors/messages.ts';

export async function readJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw badRequest('common.invalid_json');
    }
  }
  return validate(schema, raw);
}

const isText = (text: string): boolean => isWellFormed(text) && !text.includes('\u0000');

/** The field path of the first string (value or key) in `value` that is not well-formed text, or null. */
function malformedString(value: unknown): string | null {
  // Iterative, so a body of deeply nested arrays cannot overflow the stack.
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [item, at] = stack.pop()!;
    if (typeof item === 'string') {
      if (!isText(item)) return at || 'body';
    } else if (Array.isArray(item)) {
      item.forEach((v, i) => stack.push([v, at ? `${at}.${i}` : String(i)]));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, v] of Object.entries(item)) {
        if (!isText(key)) return at || 'body';
        stack.push([v, at ? `${at}.${key}` : key]);
      }
    }
  }
  return null;
}

export function validate<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const malformed = malformedString(raw);
  if (malformed !== null) {
    throw invalidFields(
      'common.validation',
      {
        [malformed]: 'validation.malformed_text',
      },
      { field: malformed },
    );
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const details: Record<string, MessageKey> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'body';
    const key = `validation.${issue.message}`;
    details[field] ??= isMessageKey(key) ? key : 'common.validation';
  }
  throw invalidFields('common.validation', details, {
    ...issueParams(result.error.issues[0]),
    field: Object.keys(details)[0] ?? '',
  });
}

/** The text and number `params` a custom issue carries for its message (e.g. a reserved prefix). */
function issueParams(issue: z.core.$ZodIssue | undefined): Record<string, string | number> {
  if (issue?.code !== 'custom' || !issue.params) return {};
  return Object.fromEntries(
    Object.entries(issue.params).filter(
      (entry): entry is [string, string | number] =>
        typeof entry[1] === 'string' || typeof entry[1] === 'number',
    ),
  );
}
