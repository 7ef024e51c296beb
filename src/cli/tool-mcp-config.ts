// What `gw run` adds so a coding tool's MCP tool calls join its session (docs/sessions.md, "gw run
// and MCP"): gw's /mcp as an MCP server named gw, and the run's session id on the model calls and
// the MCP calls alike. Claude Code is named up front (--session-id, tool-launch.ts). Codex and
// opencode make up their session id when they start and send it to the model only; Gemini CLI
// sends none. So for these three gw names the session itself: the id it issued for the run goes
// out as x-gw-session (which wins over the tool's own header) on both. The credential is never
// put on the command line (argv is visible to every user of the machine): each entry reads it
// from the environment gw gives the tool.

/** The words that make a run continue an earlier session: it keeps the tool's own id, and gw stamps none. */
const RESUMING: Record<'codex' | 'opencode', (args: readonly string[]) => boolean> = {
  // `codex resume`, `codex fork`, `codex exec resume` (the first words that are not options).
  codex: (args) => {
    const words = args.filter((arg) => !arg.startsWith('-'));
    return words[0] === 'resume' || words[0] === 'fork' || ((words[0] === 'exec' || words[0] === 'e') && words[1] === 'resume');
  },
  opencode: (args) => args.some((arg) => ['--continue', '-c', '--session', '-s', '--fork'].includes(arg) || arg.startsWith('--session=')),
};

/** The session gw stamps on this run: none when the run resumes one of the tool's own. */
export function runSession(tool: 'codex' | 'gemini' | 'opencode', args: readonly string[], sessionId: string | undefined): string | undefined {
  // Gemini CLI sends no session id of its own, so even a resumed run has only the one gw gives it.
  if (tool !== 'gemini' && RESUMING[tool](args)) return undefined;
  return sessionId;
}

export const sessionHeader = (session: string | undefined): Record<string, string> => (session !== undefined ? { 'x-gw-session': session } : {});

/** A TOML inline table of string values (JSON string escapes are valid TOML basic strings). */
function tomlTable(values: Record<string, string>): string {
  return `{ ${Object.entries(values).map(([name, value]) => `${JSON.stringify(name)} = ${JSON.stringify(value)}`).join(', ')} }`;
}

/**
 * Codex: `-c` overrides for this run (its config.toml untouched). Streamable HTTP is Codex's own
 * MCP client in the pinned release (no experimental_use_rmcp_client); the key comes from GW_API_KEY
 * (bearer_token_env_var), so argv holds only the URL and the session id. Tool approval is left to
 * the user (`-c mcp_servers.gw.default_tools_approval_mode="approve"` for `codex exec`).
 */
export function codexMcpOverrides(url: string, session: string | undefined): string[] {
  return [
    '-c', `mcp_servers.gw.url=${JSON.stringify(`${url}/mcp`)}`,
    '-c', 'mcp_servers.gw.bearer_token_env_var="GW_API_KEY"',
    // Codex waits only a short grace for an optional MCP server before its first turn: on a busy
    // machine that turn went out without gw's tools. Required, it waits (and a /mcp that cannot
    // start fails the run by name instead of leaving the tools silently out).
    '-c', 'mcp_servers.gw.required=true',
    ...(session !== undefined ? ['-c', `mcp_servers.gw.http_headers=${tomlTable(sessionHeader(session))}`] : []),
  ];
}

/** Codex's model provider entry gets the session too (its own session-id header loses to it). */
export function codexProviderHeaders(session: string | undefined): string {
  return session !== undefined ? `, http_headers = ${tomlTable(sessionHeader(session))}` : '';
}

/**
 * Gemini CLI: `mcpServers.gw` in the run's own settings.json. Gemini CLI expands `$VAR` in its
 * settings, so the file names GEMINI_API_KEY (which gw run sets) instead of holding the key.
 */
export function geminiMcpServer(url: string, session: string | undefined): Record<string, unknown> {
  return { httpUrl: `${url}/mcp`, headers: { Authorization: 'Bearer ${GEMINI_API_KEY}', ...sessionHeader(session) } };
}

/** Gemini CLI's custom headers for the model calls (`Name: value, …`), after the user's own. */
export function geminiCustomHeaders(own: string | undefined, session: string | undefined): Record<string, string> {
  if (session === undefined) return {};
  const mine = `x-gw-session: ${session}`;
  return { GEMINI_CLI_CUSTOM_HEADERS: own !== undefined && own.trim() !== '' ? `${own}, ${mine}` : mine };
}

/** opencode: `mcp.gw` in OPENCODE_CONFIG_CONTENT; `{env:…}` is opencode's own substitution. */
export function opencodeMcp(url: string, session: string | undefined): Record<string, unknown> {
  return { type: 'remote', url: `${url}/mcp`, headers: { Authorization: 'Bearer {env:GW_API_KEY}', ...sessionHeader(session) }, enabled: true, oauth: false };
}
