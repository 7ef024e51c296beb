// How `gw run <tool>` points each coding tool at gw without touching the user's own
// configuration: environment variables and command-line overrides only, plus, where a tool
// reads nothing else, a settings file of its own in a temporary folder. Pure: the caller
// spawns the tool. What each tool needs: docs/getting-started.md (gw run), docs/compatibility.md.
import { isPlainObject } from '../is-plain-object.js';
import { codexMcpOverrides, codexProviderHeaders, geminiCustomHeaders, geminiMcpServer, opencodeMcp, runSession, sessionHeader } from './tool-mcp-config.js';

export const RUNNABLE_TOOLS = ['claude', 'codex', 'gemini', 'opencode'] as const;
export type RunnableTool = (typeof RUNNABLE_TOOLS)[number];

export interface LaunchInput {
  /** The gateway's origin, e.g. http://127.0.0.1:8080. */
  url: string;
  /** What the tool sends as its key: a short-lived gw key, or any value for a sidecar. */
  credential: string;
  /** A model to ask for when the user names none (the mock-only gateway's mock/echo), or null for the tool's own default. */
  model: string | null;
  /** The user's own arguments, passed through after gw's. */
  args: readonly string[];
  /** The user's ~/.gemini/settings.json, when there is one: gw run gemini starts from it. */
  geminiSettings?: string | null;
  /** The gateway fronts MCP servers: the tool gets gw's /mcp as one more MCP server. */
  mcp?: boolean;
  /** A fresh session id (a UUID) for the run, so its MCP calls carry the same session as its model calls (docs/sessions.md). */
  sessionId?: string;
  /** The user's own GEMINI_CLI_CUSTOM_HEADERS, kept when gw adds its session header to them. */
  geminiCustomHeaders?: string;
}

export interface Launch {
  args: string[];
  env: Record<string, string>;
  /** Files to write before starting (path relative to a temporary folder gw makes → content). */
  files: Record<string, string>;
}

const namesModel = (args: readonly string[], flags: readonly string[]) => args.some((arg) => flags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));

function claude(input: LaunchInput): Launch {
  // ANTHROPIC_AUTH_TOKEN, not ANTHROPIC_API_KEY: Claude Code asks no "use this key?" question for it, and without any it stops at "Not logged in".
  const model = input.model !== null && !namesModel(input.args, ['--model']) ? ['--model', input.model] : [];
  // gw's /mcp as an MCP server named gw, next to the user's own (--mcp-config adds, it does not replace).
  // Claude Code sends its session id (x-claude-code-session-id) to the model, not to MCP servers: gw names the
  // session (--session-id) and hands the same id to /mcp as x-gw-session, so the tool calls join the session.
  // A run that resumes or names its own session keeps it; then only a --session-id it gave is known.
  const resumes = namesModel(input.args, ['--resume', '-r', '--continue', '-c', '--fork-session']);
  const given = input.args.indexOf('--session-id');
  const session = given >= 0 ? input.args[given + 1] : resumes ? undefined : input.sessionId;
  const sessionArgs = given < 0 && !resumes && input.sessionId !== undefined ? ['--session-id', input.sessionId] : [];
  const headers: Record<string, string> = { Authorization: `Bearer ${input.credential}`, ...(session !== undefined ? { 'x-gw-session': session } : {}) };
  const mcp = input.mcp
    ? ['--mcp-config', JSON.stringify({ mcpServers: { gw: { type: 'http', url: `${input.url}/mcp`, headers } } })]
    : [];
  return { args: [...model, ...(input.mcp ? sessionArgs : []), ...mcp, ...input.args], env: { ANTHROPIC_BASE_URL: input.url, ANTHROPIC_AUTH_TOKEN: input.credential }, files: {} };
}

function codex(input: LaunchInput): Launch {
  // -c overrides for this run only: the user's ~/.codex/config.toml is read as usual, untouched.
  // With /mcp, gw's /mcp joins the user's MCP servers and the run's session goes on both (tool-mcp-config.ts).
  const session = input.mcp ? runSession('codex', input.args, input.sessionId) : undefined;
  const provider = `{ name = "gw", base_url = ${JSON.stringify(`${input.url}/v1`)}, env_key = "GW_API_KEY", wire_api = "responses", supports_websockets = true${codexProviderHeaders(session)} }`;
  const model = input.model !== null && !namesModel(input.args, ['-m', '--model']) ? ['-c', `model=${JSON.stringify(input.model)}`] : [];
  const mcp = input.mcp ? codexMcpOverrides(input.url, session) : [];
  return { args: ['-c', 'model_provider="gw"', '-c', `model_providers.gw=${provider}`, ...model, ...mcp, ...input.args], env: { GW_API_KEY: input.credential }, files: {} };
}

function gemini(input: LaunchInput): Launch {
  // With a base URL set, Gemini CLI picks a "gateway" auth of its own and refuses to run headless
  // unless its *user* settings say the key is a Gemini API key (neither its system settings file nor
  // GEMINI_DEFAULT_AUTH_TYPE does it). So this run gets a home of its own (GEMINI_CLI_HOME) holding a
  // copy of the user's settings with that one field set; ~/.gemini itself is never written.
  let settings: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(input.geminiSettings ?? '{}');
    if (isPlainObject(parsed)) settings = parsed;
  } catch { /* unreadable settings: start from none */ }
  const security = (typeof settings.security === 'object' && settings.security !== null ? settings.security : {}) as Record<string, unknown>;
  const auth = (typeof security.auth === 'object' && security.auth !== null ? security.auth : {}) as Record<string, unknown>;
  // With /mcp: gw's /mcp next to the user's own servers, and the run's session on both (tool-mcp-config.ts).
  const session = input.mcp ? runSession('gemini', input.args, input.sessionId) : undefined;
  const servers = isPlainObject(settings.mcpServers) ? settings.mcpServers : {};
  const mcp = input.mcp ? { mcpServers: { ...servers, gw: geminiMcpServer(input.url, session) } } : {};
  const merged = { ...settings, security: { ...security, auth: { ...auth, selectedType: 'gemini-api-key' } }, ...mcp };
  const model = input.model !== null && !namesModel(input.args, ['-m', '--model']) ? ['-m', input.model] : [];
  return {
    args: [...model, ...input.args],
    env: { GOOGLE_GEMINI_BASE_URL: input.url, GEMINI_API_KEY: input.credential, GEMINI_CLI_HOME: '{dir}', ...geminiCustomHeaders(input.geminiCustomHeaders, session) },
    files: { '.gemini/settings.json': `${JSON.stringify(merged, null, 2)}\n` },
  };
}

/** The value of the user's -m/--model, if any. */
function modelArgument(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '-m' || arg === '--model') return args[index + 1];
    if (arg.startsWith('--model=')) return arg.slice('--model='.length);
  }
  return undefined;
}

function opencode(input: LaunchInput): Launch {
  // A provider named gw in OPENCODE_CONFIG_CONTENT, merged over the user's own config for this run;
  // a model the user names as gw/<model> is declared in it (opencode only runs declared models).
  const named = modelArgument(input.args);
  const model = named?.startsWith('gw/') ? named.slice(3) : input.model ?? 'claude-sonnet-4-5';
  // With /mcp: gw's /mcp as mcp.gw, and the run's session on the provider and the MCP entry (tool-mcp-config.ts).
  const session = input.mcp ? runSession('opencode', input.args, input.sessionId) : undefined;
  const config = {
    provider: {
      gw: {
        npm: '@ai-sdk/openai-compatible', name: 'gw',
        options: { baseURL: `${input.url}/v1`, apiKey: '{env:GW_API_KEY}', ...(session !== undefined ? { headers: sessionHeader(session) } : {}) },
        models: { [model]: { name: model } },
      },
    },
    ...(named === undefined ? { model: `gw/${model}` } : {}),
    ...(input.mcp ? { mcp: { gw: opencodeMcp(input.url, session) } } : {}),
  };
  return { args: [...input.args], env: { OPENCODE_CONFIG_CONTENT: JSON.stringify(config), GW_API_KEY: input.credential }, files: {} };
}

const BUILDERS: Record<RunnableTool, (input: LaunchInput) => Launch> = { claude, codex, gemini, opencode };

export function launchFor(tool: RunnableTool, input: LaunchInput): Launch {
  return BUILDERS[tool](input);
}

export function isRunnableTool(name: string): name is RunnableTool {
  return (RUNNABLE_TOOLS as readonly string[]).includes(name);
}
