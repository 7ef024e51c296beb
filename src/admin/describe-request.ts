// What the request explorer shows a person for one request record, in words: which operation it
// was (chat, models.list, mcp tools/list, audit checkpoints…), whether it is the gateway's own
// control plane (hidden unless asked for), and its outcome: ok, or who refused it (a budget, a
// rate limit, a policy rule, a DLP rule, the door, the provider). Read from the record's
// operation, route, status, outcome codes and data; the same for the file trail and PostgreSQL.
import { isControlPlaneCall } from '../audit/record.js';

/** The record fields the description is made from. */
interface DescribedFields {
  operation?: string;
  route?: string;
  status?: number;
  provider?: string;
  outcome?: string[];
  dlp?: Record<string, number>;
  data?: Record<string, unknown>;
}

type ResultKind = 'ok' | 'refused' | 'failed' | 'expected';

export interface RequestDescription {
  /** The operation in a word or two: `chat`, `models.list`, `mcp tools/list`, `token exchange`. */
  what: string;
  /** `control`: model lists, logins, audit checkpoints, MCP handshakes; `data`: the calls people make. */
  plane: 'data' | 'control';
  result_kind: ResultKind;
  /** The outcome in words: `ok`, `budget team:eng monthly budget`, `DLP rule github_token`… */
  result: string;
}

const OPERATION_WORDS: Record<string, string> = {
  'chat.completions': 'chat', 'models.list.anthropic': 'models.list', 'genai.models.list': 'models.list', 'models.retrieve': 'models.get',
  'responses.create': 'responses', 'genai.models': 'generate (Gemini)', 'messages.count_tokens': 'count tokens',
  'hub.token': 'token exchange', 'hub.device_code': 'device login', 'hub.device_authorization': 'Claude Code sign-in', 'hub.revoke': 'token revoke', 'hub.witness.push': 'audit checkpoint push',
  'hub.witness.read': 'audit checkpoints', 'hub.metadata': 'hub metadata', auth: 'refused credential',
};

/** Why the door refused a credential (auth.refused's reasons, refused-calls.ts), in words. */
const AUTH_REASON_WORDS: Record<string, string> = {
  missing: 'no key', required: 'no key', unknown: 'wrong key', revoked: 'revoked key', expired: 'expired key', malformed: 'malformed key', ambiguous: 'two credentials',
};

function authReasons(data: Record<string, unknown> | undefined): string | null {
  const reasons = data?.reasons;
  if (typeof reasons !== 'object' || reasons === null) return null;
  const named = Object.keys(reasons).map((reason) => AUTH_REASON_WORDS[reason] ?? reason);
  return named.length === 0 ? null : named.join(', ');
}

/** Calls that list or probe: gw's own traffic, not model use (as is every `hub.` operation, isControlPlaneCall). */
export const CONTROL_OPERATIONS: ReadonlySet<string> = new Set(['models.list', 'models.list.anthropic', 'genai.models.list', 'models.retrieve', 'health', 'metrics', 'probe', 'protocol']);

/** What an MCP client sends to set up or keep a session, not to use a tool. */
function isMcpHandshake(method: string | undefined): boolean {
  return method === 'initialize' || method === 'ping' || (method?.startsWith('notifications/') ?? false);
}

function mcpMethod(data: Record<string, unknown> | undefined): string | undefined {
  const note = data?.mcp;
  const method = typeof note === 'object' && note !== null ? (note as { method?: unknown }).method : undefined;
  return typeof method === 'string' ? method : undefined;
}

/** The MCP SDK's GET on /mcp asking for a server stream: gw's stateless /mcp answers 405, by design. */
function isMcpStreamProbe(fields: DescribedFields): boolean {
  return fields.operation === 'mcp' && fields.status === 405 && mcpMethod(fields.data) === undefined;
}

/** The plane alone: cheap enough for the explorer's scan over every summary it holds. */
export function planeOf(fields: DescribedFields): 'data' | 'control' {
  const operation = fields.operation ?? '';
  if (isControlPlaneCall(operation) || CONTROL_OPERATIONS.has(operation)) return 'control';
  return operation === 'mcp' && (isMcpStreamProbe(fields) || isMcpHandshake(mcpMethod(fields.data))) ? 'control' : 'data';
}

export function describeRequest(fields: DescribedFields): RequestDescription {
  const operation = fields.operation ?? '';
  const probe = isMcpStreamProbe(fields);
  const what = operation === 'mcp' ? (probe ? 'mcp stream probe' : `mcp ${mcpMethod(fields.data) ?? ''}`.trim())
    : OPERATION_WORDS[operation] ?? (operation.startsWith('hub.') ? operation.slice(4).replace(/[._]/g, ' ') : operation || (fields.route ?? 'unknown'));
  const [result_kind, result] = probe ? ['expected', 'expected: no stream on a stateless /mcp (405)'] as const : outcomeOf(fields);
  return { what, plane: planeOf(fields), result_kind, result };
}

const PERIOD_WORDS: Record<string, string> = { day: 'daily', week: 'weekly', month: 'monthly' };

/** Who refused the call, or how it failed, in words; the refusal's own text (data.refusal) names the rule. */
function outcomeOf(fields: DescribedFields): [ResultKind, string] {
  const codes = fields.outcome ?? [];
  const refusal = typeof fields.data?.refusal === 'string' ? fields.data.refusal : '';
  const code = codes.find((entry) => entry !== 'ok') ?? '';
  if (code.startsWith('GW_ERR_BUDGET_')) {
    const budget = /^Budget (\S+) \([^)]* a (day|week|month),/.exec(refusal);
    if (code === 'GW_ERR_BUDGET_UNPRICED') return ['refused', 'budget: the model has no price (gw prices set)'];
    return ['refused', budget ? `budget ${budget[1]} ${PERIOD_WORDS[budget[2]!]} budget` : 'budget'];
  }
  if (code === 'GW_ERR_POLICY_RATE_LIMITED') return ['refused', `rate limit ${ruleOf(refusal, /^Rate limited by (.*?);/) ?? ''}`.trim()];
  if (code === 'GW_ERR_POLICY_DENIED') return ['refused', policyRule(refusal)];
  if (code === 'GW_ERR_DLP_BLOCKED') return ['refused', `DLP rule ${Object.keys(fields.dlp ?? {}).join(', ') || ruleOf(refusal, /rule "([^"]+)"/) || ''}`.trim()];
  if (code.startsWith('GW_ERR_AUTH_')) return ['refused', `auth: ${authReasons(fields.data) ?? words(code.slice('GW_ERR_AUTH_'.length))}`];
  if (code.startsWith('GW_ERR_LIMITS_')) return ['failed', 'rate limits unavailable'];
  const upstream = /^upstream_(\d{3})$/.exec(code);
  if (upstream) return ['failed', `provider error: ${fields.provider ?? 'the provider'} answered ${upstream[1]}`];
  if (code.startsWith('GW_ERR_UPSTREAM_')) return ['failed', `provider error: ${fields.provider ?? 'the provider'} ${words(code.slice('GW_ERR_UPSTREAM_'.length))}`];
  if (code === 'client_disconnected') return ['failed', 'the client hung up'];
  if ((fields.status ?? 0) < 400 && code === '') return ['ok', 'ok'];
  return ['failed', code.startsWith('GW_ERR_') ? words(code.slice('GW_ERR_'.length)) : code || `status ${fields.status ?? '?'}`];
}

/** `Refused by policy team:eng: model "x" matches deny_models (…).` → `policy rule team:eng deny_models` (the whole text is in the detail). */
function policyRule(refusal: string): string {
  const scope = /^Refused by policy (\S+): /.exec(refusal)?.[1];
  const field = /\b((?:allow|deny)_[a-z_]+|max_tokens|operations)\b/.exec(refusal)?.[1];
  return ['policy rule', scope, field].filter(Boolean).join(' ');
}

function ruleOf(text: string, pattern: RegExp): string | null {
  return pattern.exec(text)?.[1] ?? null;
}

function words(code: string): string {
  return code.toLowerCase().replace(/_/g, ' ');
}
