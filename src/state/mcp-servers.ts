// The MCP servers gw aggregates at /mcp (`gw mcp add|remove`), as state.json holds
// them. Like a provider key, every header value and child-process variable may be
// `env:NAME`, read from gw's environment when it connects; the value is never
// written here, logged or shown.

export type McpTransportKind = 'http' | 'sse' | 'stdio';

export interface StoredMcpServer {
  /** Lower-case letters, digits and single hyphens: the namespace of its tools (`NAME__tool`). */
  name: string;
  transport: McpTransportKind;
  /** Remote servers (http: streamable HTTP; sse: the 2024-11-05 transport). */
  url?: string;
  /** Headers gw sends upstream (a bearer token…): header → `env:NAME` or a literal. */
  headers?: Record<string, string>;
  /** The host `url` named when the headers were set (bound-host.ts): they go nowhere else. */
  credential_host?: string;
  /** stdio: the program and its arguments, started by gw as a child process. */
  command?: string[];
  /** stdio: the child's extra variables: NAME → `env:NAME` or a literal. */
  env?: Record<string, string>;
  created_at: string;
}

export const MCP_SERVER_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type Json = Record<string, unknown>;

/** state.json's `mcp_servers`: the list, or a message naming the first bad entry. */
export function readMcpServers(value: unknown): StoredMcpServer[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'mcp_servers is not a list';
  for (const [index, item] of value.entries()) {
    const problem = readServer(item);
    if (problem !== null) return `mcp_servers[${index}] ${problem}`;
  }
  return value as StoredMcpServer[];
}

function readServer(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'is not an object';
  const server = item as Json;
  if (typeof server.name !== 'string' || !MCP_SERVER_NAME.test(server.name)) return 'has no valid name (lower-case letters, digits, single hyphens)';
  if (server.transport === 'stdio') {
    if (!Array.isArray(server.command) || server.command.length === 0 || !server.command.every((part) => typeof part === 'string')) return 'has no command';
  } else if (server.transport === 'http' || server.transport === 'sse') {
    if (typeof server.url !== 'string' || !/^https?:\/\//.test(server.url)) return 'has no http(s) url';
  } else {
    return 'transport is not http, sse or stdio';
  }
  if (server.credential_host !== undefined && typeof server.credential_host !== 'string') return 'credential_host is not a string';
  for (const field of ['headers', 'env']) {
    const map = server[field];
    if (map === undefined) continue;
    if (typeof map !== 'object' || map === null || Array.isArray(map) || !Object.values(map).every((entry) => typeof entry === 'string')) return `${field} is not a map of strings`;
  }
  return null;
}
