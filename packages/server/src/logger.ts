/**
 * Structured JSON logs (pino). Secrets never reach a log line: handlers log no headers, bodies or
 * query strings, and these paths are redacted as a second line of defence.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'password',
          '*.password',
          'token',
          '*.token',
          'key',
          '*.key',
          'authorization',
          '*.authorization',
          'headers',
          '*.headers',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
