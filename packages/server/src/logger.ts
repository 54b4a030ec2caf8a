/**
 * Structured JSON logs (pino). Secrets never reach a log line: handlers log no headers, bodies or
 * query strings, and these paths are redacted as a second line of defence.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  // Buffered asynchronous writes to stdout: one write per few KB of log instead of one per
  // request line. main.ts flushes on shutdown.
  destination ??= pino.destination({ dest: 1, sync: false, minLength: 4096 });
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
