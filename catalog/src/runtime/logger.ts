// JSON logs (pino), one logger per process, each line of a request stamped with its id. Secrets
// never reach a log line: the Authorization header and token fields are redacted wherever they appear.
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { currentRequestId } from './request-context.ts';
import type { LogLevel } from './config.ts';

export type { Logger };

/**
 * `level` is the process config's LOG_LEVEL (the logger reads no environment of its own);
 * `destination` (default stdout) lets tests read what a service logs.
 */
export function createLogger(name: string, level: LogLevel, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    name,
    level,
    // Every line logged while serving a request carries its id (a field given explicitly wins).
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token', 'accessToken', '*.accessToken'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
