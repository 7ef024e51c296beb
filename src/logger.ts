// The only importer of pino. One JSON line per request; credentials are never
// logged: headers are not logged at all, the paths below are redacted in case an
// object carrying them is ever passed, and query strings are masked (Gemini-style
// `?key=` would otherwise land in the log), and so is the password of any
// `scheme://user:password@` URL in a message or a logged object.
import { pino, type Logger, type DestinationStream } from 'pino';
import { maskUrlCredentials, maskUrlCredentialsDeep } from './mask-url-credentials.js';
import { prettyDestination, type LogFormat } from './pretty-log.js';

export type { Logger } from 'pino';

const REDACTED_PATHS = [
  'req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["api-key"]', 'req.headers["x-goog-api-key"]',
  'req.headers["x-gw-vk"]', 'req.headers["proxy-authorization"]', 'req.headers.cookie',
  'headers.authorization', 'headers["x-api-key"]', 'headers["api-key"]', 'headers["x-goog-api-key"]', 'headers["x-gw-vk"]',
  '*.apiKey', '*.api_key', '*.key', '*.token',
];

export interface LoggerOptions {
  level?: string;
  destination?: DestinationStream;
  /** pretty: one readable line per request on stderr (src/pretty-log.ts); json (default): pino's lines. */
  format?: LogFormat;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info', base: { service: 'gw' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { log: (object) => maskUrlCredentialsDeep(object) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          const masked = args.map((arg) => (typeof arg === 'string' ? maskUrlCredentials(arg) : arg)) as Parameters<typeof method>;
          method.apply(this, masked);
        },
      },
    },
    // Lines are gathered into writes of up to ~12 KiB (one write per few dozen requests under
    // load, instead of one per line), and whatever waits is written at least once a second, so
    // a quiet gateway's lines still show up at once for someone tailing them. flush() at shutdown writes the rest.
    options.destination ?? (options.format === 'pretty'
      ? prettyDestination(process.stderr) as DestinationStream
      : pino.destination({ dest: 2, sync: false, minLength: 12 * 1024, periodicFlush: 1000 })),
  );
}

/** A path safe to log: the query string's values are dropped, its names kept. */
export function pathForLog(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const names = url.slice(queryStart + 1).split('&').map((pair) => pair.split('=')[0]).filter(Boolean);
  return `${url.slice(0, queryStart)}?${names.map((name) => `${name}=…`).join('&')}`;
}
