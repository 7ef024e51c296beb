// MCP 2026-07-28's standard headers: `Mcp-Method` names the message's method and `Mcp-Name` its
// target (tools/call and prompts/get: params.name; resources/read: params.uri), so gw decides
// on them before it reads the body (src/server/mcp-route.ts: a refused call costs no parse).
// The body is then held to them: a request whose headers and body disagree is refused, whatever
// revision it claims, so a header never buys a pass the body would not get (the relays decide
// again on the body). No SDK import: the route reads this at the door.
import type { IncomingHttpHeaders } from 'node:http';
import type { McpCapability } from '../policy/evaluate-mcp-access.js';
import { SEPARATOR, splitName, splitResourceUri } from './relay-call.js';

/** The revision that brought the headers; a body claiming it (or later) must carry them. */
const FIRST_HEADER_REVISION = '2026-07-28';
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** The body field `Mcp-Name` mirrors, by method (the revision's table; tasks/* are refused by gw anyway). */
const NAME_FIELD: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId',
};

export interface McpHeaders {
  method: string | null;
  name: string | null;
}

export function readMcpHeaders(headers: IncomingHttpHeaders): McpHeaders {
  return { method: headerValue(headers['mcp-method']), name: decodeName(headerValue(headers['mcp-name'])) };
}

function headerValue(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value.join(',') : value;
  return text === undefined ? null : text.trim();
}

/** A name outside visible ASCII travels as `=?base64?…?=`; one that does not decode stays as sent (and matches no body). */
function decodeName(value: string | null): string | null {
  const match = value === null ? null : /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/i.exec(value);
  return match ? Buffer.from(match[1] ?? '', 'base64').toString('utf8') : value;
}

/** What the headers name for policy: the server and, for a call, read or get, the capability; null when they name none. */
export function headerTarget(headers: McpHeaders): { server: string; capability: McpCapability } | null {
  if (headers.name === null) return null;
  if (headers.method === 'tools/call' || headers.method === 'prompts/get') {
    const split = splitName(headers.name);
    return split === null ? null : { server: split.server, capability: { kind: headers.method === 'tools/call' ? 'tool' : 'prompt', name: headers.name } };
  }
  if (headers.method === 'resources/read') {
    const split = splitResourceUri(headers.name);
    return split === null ? null : { server: split.server, capability: { kind: 'resource', name: `${split.server}${SEPARATOR}${split.uri}` } };
  }
  return null;
}

/**
 * Where the headers and the body disagree ('Mcp-Method', 'Mcp-Name'), or null. A header sent
 * must match the body; a body that claims 2026-07-28 or later must send both (its revision
 * requires them). Never a value in the answer: a name may be what a DLP rule matches.
 */
export function headerMismatch(headers: McpHeaders, body: unknown): 'Mcp-Method' | 'Mcp-Name' | null {
  const message = isObject(body) ? body : {};
  const method = typeof message.method === 'string' ? message.method : null;
  const params = isObject(message.params) ? message.params : {};
  const field = method !== null && Object.hasOwn(NAME_FIELD, method) ? NAME_FIELD[method] : undefined;
  const bodyName = field === undefined ? null : params[field];
  const required = method !== null && 'id' in message && claimsHeaderRevision(params);
  if (headers.method === null ? required : headers.method !== method) return 'Mcp-Method';
  if (headers.name === null) return required && typeof bodyName === 'string' ? 'Mcp-Name' : null;
  return headers.name === bodyName ? null : 'Mcp-Name';
}

function claimsHeaderRevision(params: Record<string, unknown>): boolean {
  const meta = params._meta;
  const claimed = isObject(meta) ? meta[PROTOCOL_VERSION_META] : undefined;
  return typeof claimed === 'string' && claimed >= FIRST_HEADER_REVISION;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
