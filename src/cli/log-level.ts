// The --log-level / GW_LOG_LEVEL check, made before pino is loaded: pino's own
// refusal ("default level:verbose must be included in custom levels") names
// neither the option nor the levels that would work.
import { CliExit } from './cli-context.js';

/** pino's levels, most to least severe, and `silent`; test/cli/log-level.test.ts checks them against pino. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

function isLogLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

/** The level, or exit 2 (bad usage) naming where the value came from and every valid level. */
export function checkLogLevel(text: string, fromFlag: boolean): LogLevel {
  if (isLogLevel(text)) return text;
  throw new CliExit(2, `invalid ${fromFlag ? '--log-level' : 'GW_LOG_LEVEL'} "${text}": use one of ${LOG_LEVELS.join(', ')}`);
}
