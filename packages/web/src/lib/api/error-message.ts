/**
 * What a screen shows for a failed call: an ApiError's message is the server's (or the client's)
 * words in the UI language already; anything else is a fault of ours, shown as "something went
 * wrong" rather than as a programmer's message.
 */
import { i18n } from '../i18n/index.ts';
import { isApiError } from './api-error.ts';

export function errorMessage(error: unknown): string {
  return isApiError(error) ? error.message : String(i18n.t('errors.unexpected'));
}
