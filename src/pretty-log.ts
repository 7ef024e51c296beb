// The human-readable log format (gw serve --log-format pretty, the default on a terminal):
// one short line per request (time, status, method, path, model → provider, ms, request id)
// and a level-tagged line for everything else. It reformats the JSON lines pino writes, so
// whatever pino redacts and masks stays redacted and masked; JSON stays the format for files
// and log collectors.

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
// Fields the request line already shows, or that only a machine wants.
const SHOWN = new Set(['level', 'time', 'service', 'msg', 'pid', 'hostname', 'request_id', 'method', 'path', 'status', 'latency_ms', 'model', 'provider', 'family', 'operation', 'outcome']);

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return date.toISOString().slice(11, 23);
}

function rest(entry: Record<string, unknown>): string {
  return Object.entries(entry).filter(([name]) => !SHOWN.has(name)).map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join(' ');
}

export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const extra = rest(entry);
  if (entry.msg === 'request') {
    const route = entry.model ? ` ${String(entry.model)}${entry.provider ? ` → ${String(entry.provider)}` : ''}` : '';
    const outcome = Array.isArray(entry.outcome) && entry.outcome.some((code) => code !== 'ok') ? ` ${entry.outcome.join(',')}` : '';
    return `${clock(entry.time)} ${String(entry.status ?? '-')} ${String(entry.method ?? '')} ${String(entry.path ?? '')}${route} ${String(entry.latency_ms ?? '?')}ms ${String(entry.request_id ?? '')}${outcome}${extra ? ` ${extra}` : ''}`;
  }
  return `${clock(entry.time)} ${LEVELS[Number(entry.level)] ?? String(entry.level)} ${String(entry.msg ?? '')}${extra ? ` ${extra}` : ''}`;
}

/** A pino destination writing pretty lines to `out` (process.stderr). */
export function prettyDestination(out: { write(text: string): unknown }): { write(chunk: string): void; flush(callback?: () => void): void; flushSync(): void } {
  let partial = '';
  return {
    // Every line is written as it comes: there is nothing held back to flush.
    flush: (callback) => callback?.(),
    flushSync: () => undefined,
    write(chunk: string) {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      const text = lines.filter((line) => line !== '').map(formatLogLine).join('\n');
      if (text) out.write(`${text}\n`);
    },
  };
}

export type LogFormat = 'pretty' | 'json';

/** --log-format or GW_LOG_FORMAT; by default pretty on a terminal, JSON otherwise (a file, a pipe, a collector). */
export function resolveLogFormat(flag: string | undefined, env: NodeJS.ProcessEnv, isTty: boolean): LogFormat {
  const value = (flag ?? env.GW_LOG_FORMAT)?.trim().toLowerCase();
  if (value === undefined || value === '') return isTty ? 'pretty' : 'json';
  if (value === 'pretty' || value === 'json') return value;
  throw new Error(`invalid log format "${value}": use pretty or json`);
}
