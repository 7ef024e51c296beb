// `gw audit show --session ID`: every model call and MCP tool call of one coding-agent session
// (docs/sessions.md) in trail order, with time, operation, model or tool, tokens, cost and
// outcome. Reads the same request records `gw usage` sums: the home's trail, a --file, or with
// --store (GW_DATABASE_URL) the PostgreSQL trail of every instance. A call is shaped by
// src/admin/session-calls.ts, which the console's session timeline shows too.
import path from 'node:path';
import type { Command } from 'commander';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { openStoreTrailSource } from '../../postgres/store-trail-source.js';
import { isSessionId } from '../../canonical/session-id.js';
import { isHandshake, sessionCallOf, type SessionCall } from '../../admin/session-calls.js';
import { readRequestRecords } from '../../spend/read-trail.js';
import { openTrailSource, type TrailSource } from '../../spend/trail-source.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { formatTable } from '../state-command.js';
import { errorCode } from '../../error-code.js';

interface ShowFlags { session?: string; json?: boolean; file?: string; home?: string; store?: string }

export function registerAuditShowCommand(audit: Command, context: CliContext): void {
  audit.command('show').description('Every model call and MCP tool call of one coding-agent session, in trail order')
    .requiredOption('--session <id>', 'the session (its id as recorded: gw usage --by session lists them)')
    .option('--json', 'print JSON')
    .option('--file <path>', 'the trail to read (default: <home>/audit/audit.jsonl)')
    .option('--home <dir>', 'gw home folder (default: $GW_HOME or the platform config folder)')
    .option('--store <url>', 'read the PostgreSQL trail of every instance (default: GW_DATABASE_URL)')
    .action(async (flags: ShowFlags) => runAuditShow(flags, context));
}

async function runAuditShow(flags: ShowFlags, context: CliContext): Promise<void> {
  const session = flags.session ?? '';
  if (!isSessionId(session)) throw new CliExit(2, `invalid --session "${session.slice(0, 40)}": a session id as recorded (letters, digits, . _ : @ + -; at most 128)`);
  const trail: TrailSource = flags.file
    ? { records: () => readRequestRecords(path.resolve(flags.file!)), where: path.resolve(flags.file), close: async () => {} }
    : await openTrailSource(context.home(flags.home), resolveStoreUrl(flags.store, context.env), openStoreTrailSource);
  const calls: SessionCall[] = [];
  try {
    for await (const record of trail.records()) if (record.session === session && !isHandshake(record)) calls.push(sessionCallOf(record));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new CliExit(2, `no audit trail at ${trail.where}: gw serve writes one there`);
    throw new CliExit(2, `cannot read the audit trail in ${trail.where}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await trail.close().catch(() => undefined);
  }
  if (flags.json) return context.stdout.write(`${JSON.stringify({ session, calls }, null, 2)}\n`);
  if (calls.length === 0) throw new CliExit(1, `no calls of session ${session} in ${trail.where}`);
  context.stdout.write(formatSessionCalls(calls));
}

function formatSessionCalls(calls: readonly SessionCall[]): string {
  const header = ['time', 'operation', 'model or tool', 'status', 'input', 'output', 'cost_usd', 'outcome'];
  const lines = calls.map((call) => [
    call.ts, call.operation, call.target ?? '', call.status === null ? '' : String(call.status), String(call.input_tokens), String(call.output_tokens),
    call.cost_nano_usd === null ? '' : (call.cost_nano_usd / 1e9).toFixed(9), call.outcome.join(' '),
  ]);
  const cost = calls.reduce((sum, call) => sum + (call.cost_nano_usd ?? 0), 0);
  const agents = [...new Set(calls.map((call) => call.agent).filter((agent) => agent !== null))];
  const total = ['total', `${calls.length} calls`, agents.join(' '), '', String(calls.reduce((sum, call) => sum + call.input_tokens, 0)),
    String(calls.reduce((sum, call) => sum + call.output_tokens, 0)), (cost / 1e9).toFixed(9), ''];
  return formatTable([header, ...lines, total]);
}
