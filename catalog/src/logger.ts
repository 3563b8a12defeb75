// JSON logs (pino), one logger per process. Secrets never reach a log line: the Authorization header
// and token fields are redacted wherever they appear.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token', 'accessToken', '*.accessToken'],
      censor: '[redacted]',
    },
  });
}
