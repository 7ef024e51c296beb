// `--log-format pretty`: pino's JSON lines, already redacted and masked by logger.ts,
// rewritten as one short line each for someone watching a terminal. A request reads
// `10:21:03.123 200 POST /v1/chat/completions mock/echo → mock 12ms req-1`; anything else
// `10:21:03.123 WARN message key=value …`. Only fields pino was given are printed, so
// this adds no way for a secret to reach the terminal that JSON did not have. No pino here:
// the destination is a plain { write } object (logger.ts stays pino's only importer).

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line carries or the pretty line already shows in its own place. */
const SHOWN_ELSEWHERE = new Set(['level', 'time', 'pid', 'hostname', 'service', 'msg']);

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

function extras(line: Record<string, unknown>): string {
  const parts = Object.entries(line)
    .filter(([name, value]) => !SHOWN_ELSEWHERE.has(name) && value !== undefined)
    .filter(([, value]) => !(Array.isArray(value) && value.length === 0))
    .map(([name, value]) => `${name}=${fieldText(value)}`);
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}

/** One JSON log line as its pretty line (without the newline); a line that is not JSON stays as it is. */
export function prettyLine(json: string): string {
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const time = clock(line.time);
  if (line.msg === 'request' && typeof line.status === 'number') {
    const target = [line.model, line.provider].filter((part) => typeof part === 'string').join(' → ');
    // The outcome is worth a look only when it is not the plain "ok".
    const outcome = Array.isArray(line.outcome) && !(line.outcome.length === 1 && line.outcome[0] === 'ok') ? ` [${line.outcome.join(', ')}]` : '';
    return `${time} ${line.status} ${String(line.method)} ${String(line.path)}${target ? ` ${target}` : ''} ${String(line.latency_ms)}ms ${String(line.request_id)}${outcome}`;
  }
  const level = LEVEL_NAMES[Number(line.level)] ?? String(line.level);
  return `${time} ${level} ${String(line.msg ?? '')}${extras(line)}`;
}

/** A pino destination writing pretty lines to `out` (stderr, as the JSON lines are). */
export function prettyDestination(out: { write(text: string): unknown }): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      const lines = chunk.split('\n').filter((line) => line.length > 0);
      out.write(lines.map((line) => `${prettyLine(line)}\n`).join(''));
    },
  };
}

/** The format asked for, or pretty when the log goes to a terminal and JSON otherwise (files, pipes, collectors). */
export function chooseLogFormat(asked: string | undefined, logIsTerminal: boolean): LogFormat | null {
  if (asked === undefined) return logIsTerminal ? 'pretty' : 'json';
  return (LOG_FORMATS as readonly string[]).includes(asked) ? asked as LogFormat : null;
}
