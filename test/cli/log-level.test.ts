// The level list gw checks before loading pino must be pino's own, or a valid
// level would be refused (or an invalid one reach pino's unhelpful error).
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LOG_LEVELS, checkLogLevel } from '../../src/cli/log-level.js';
import { CliExit } from '../../src/cli/cli-context.js';

describe('log levels', () => {
  it('are exactly pino\'s levels and silent', () => {
    expect([...LOG_LEVELS].sort()).toEqual([...Object.keys(pino.levels.values), 'silent'].sort());
  });

  it('refuse anything else with exit 2, naming the source and every valid level', () => {
    expect(checkLogLevel('debug', true)).toBe('debug');
    const refusal = (() => { try { checkLogLevel('verbose', true); } catch (error) { return error; } return null; })();
    expect(refusal).toBeInstanceOf(CliExit);
    expect((refusal as CliExit).exitCode).toBe(2);
    expect((refusal as CliExit).message).toBe('invalid --log-level "verbose": use one of fatal, error, warn, info, debug, trace, silent');
    expect(() => checkLogLevel('loud', false)).toThrow(/^invalid GW_LOG_LEVEL "loud"/);
  });
});
