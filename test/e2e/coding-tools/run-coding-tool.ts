// Runs one headless turn of a real coding tool (Claude Code, Codex, Gemini CLI,
// opencode) against gw, the way docs/getting-started.md (gw run) says a user
// does: a fresh HOME and working folder in the temp dir (never the repo: the
// fake providers make the tool call its first tool, which may be Bash), only the
// gw base URL and key in an otherwise empty environment, and every setting that
// stops the tool's own traffic (update checks, telemetry, model lists).
// The tools are installed by scripts/ensure-test-deps.sh into a cache folder.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WireJson } from '../../support/wire-json.js';

/**
 * Where scripts/ensure-test-deps.sh installs the tools (same default there); with
 * GW_COMPAT_CLIENTS_DIR set (npm run compat:latest), the newest releases installed there instead.
 */
export const CODING_TOOLS_DIR = process.env.GW_COMPAT_CLIENTS_DIR
  || (process.env.GW_CODING_TOOLS_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gw', 'coding-tools'));

export type CodingTool = 'claude' | 'codex' | 'gemini' | 'opencode';

/** opencode's AI SDK provider packages, each speaking one client dialect to gw. */
export type OpencodeSdk = '@ai-sdk/openai-compatible' | '@ai-sdk/openai' | '@ai-sdk/anthropic' | '@ai-sdk/google';

export interface ToolRun {
  code: number | string;
  stdout: string;
  stderr: string;
  /** The final assistant text as the tool reports it. */
  finalText: string;
  /** How many tool calls the tool says it ran (where its output says so). */
  toolCalls: number | undefined;
}

export interface ToolRunOptions {
  gwUrl: string;
  key: string;
  model: string;
  prompt: string;
  /** opencode only: which of its provider packages talks to gw (default: OpenAI-compatible chat). */
  opencodeSdk?: OpencodeSdk;
  timeoutMs?: number;
  /** Codex only: let it use the Responses WebSocket (its provider's supports_websockets), as it does against OpenAI. */
  codexWebSocket?: boolean;
  /** Codex only: may write in its working folder (--sandbox workspace-write), for an edit. */
  codexWrites?: boolean;
  /** Runs in the tool's working folder after the turn, before the folder is removed. */
  inspectWorkDir?: (dir: string) => Promise<void>;
  /**
   * Lineage (docs/sessions.md): the run's session id, sent on its model calls (Claude Code's
   * --session-id; x-gw-session through each other tool's own custom-header setting) and, with
   * `mcp`, on gw's /mcp configured as the tool's MCP server named gw, so its tool calls join it.
   */
  session?: { id: string; mcp?: boolean };
  /**
   * Claude Code only: in Vertex mode (CLAUDE_CODE_USE_VERTEX=1), as a fleet set up for Vertex AI runs it, with gw as
   * its Vertex base URL (docs/vertex-clients.md): rawPredict paths, the key as ANTHROPIC_AUTH_TOKEN (→ Bearer).
   */
  vertex?: { project: string; region: string };
}

/** gw's /mcp as an MCP server entry's headers: the key, and the run's session. */
function mcpHeaders(options: ToolRunOptions): Record<string, string> {
  return { Authorization: `Bearer ${options.key}`, 'x-gw-session': options.session!.id };
}

function toolBinary(tool: CodingTool): string {
  return path.join(CODING_TOOLS_DIR, 'node_modules', '.bin', tool);
}

export function missingTools(): string[] {
  return (['claude', 'codex', 'gemini', 'opencode'] as const).filter((tool) => !existsSync(toolBinary(tool)));
}

interface Prepared { args: string[]; env: NodeJS.ProcessEnv }

async function prepareClaude(_home: string, options: ToolRunOptions): Promise<Prepared> {
  const session = options.session;
  // Claude Code sends its session id to the model (x-claude-code-session-id), not to MCP servers: the MCP entry carries it.
  const mcp = session?.mcp ? ['--mcp-config', JSON.stringify({ mcpServers: { gw: { type: 'http', url: `${options.gwUrl}/mcp`, headers: mcpHeaders(options) } } }), '--allowedTools', 'mcp__gw'] : [];
  return {
    args: ['-p', options.prompt, '--model', options.model, '--output-format', 'json', ...(session ? ['--session-id', session.id] : []), ...mcp],
    env: {
      ...(options.vertex ? {
        CLAUDE_CODE_USE_VERTEX: '1', ANTHROPIC_VERTEX_BASE_URL: `${options.gwUrl}/v1`, CLAUDE_CODE_SKIP_VERTEX_AUTH: '1',
        ANTHROPIC_VERTEX_PROJECT_ID: options.vertex.project, CLOUD_ML_REGION: options.vertex.region,
      } : { ANTHROPIC_BASE_URL: options.gwUrl }),
      ANTHROPIC_AUTH_TOKEN: options.key,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_MAX_RETRIES: '0',
      // From 2.1.337 Claude Code defers MCP tools behind its ToolSearch tool (a placeholder in the request's tools,
      // the MCP tools only once searched): off, so the scripted model is offered gw's MCP tool by name.
      ...(session?.mcp ? { ENABLE_TOOL_SEARCH: 'false' } : {}),
    },
  };
}

async function prepareCodex(home: string, options: ToolRunOptions): Promise<Prepared> {
  const codexHome = path.join(home, '.codex');
  await mkdir(codexHome, { recursive: true });
  await writeFile(path.join(codexHome, 'config.toml'), [
    `model = ${JSON.stringify(options.model)}`,
    'model_provider = "gw"',
    'check_for_update_on_startup = false',
    '[model_providers.gw]',
    'name = "gw"',
    `base_url = ${JSON.stringify(`${options.gwUrl}/v1`)}`,
    'env_key = "GW_API_KEY"',
    'wire_api = "responses"',
    ...(options.codexWebSocket ? ['supports_websockets = true'] : []),
    // Codex sends its own session-id; x-gw-session (which wins) names the run's session on the model calls and the MCP calls alike.
    ...(options.session ? [`http_headers = { "x-gw-session" = ${JSON.stringify(options.session.id)} }`] : []),
    ...(options.session?.mcp ? ['[mcp_servers.gw]', `url = ${JSON.stringify(`${options.gwUrl}/mcp`)}`, 'bearer_token_env_var = "GW_API_KEY"',
      `http_headers = { "x-gw-session" = ${JSON.stringify(options.session.id)} }`,
      // codex exec never asks (approval policy "never"): without this an MCP tool call fails as "requires approval".
      'default_tools_approval_mode = "approve"'] : []),
    '[features]',
    'plugins = false', 'remote_plugin = false', 'apps = false', 'tool_suggest = false', 'unbounded_connection_retries = false',
    '',
  ].join('\n'));
  return {
    args: ['exec', '--skip-git-repo-check', '--ephemeral', '--json', ...(options.codexWrites ? ['--sandbox', 'workspace-write'] : []), options.prompt],
    env: { CODEX_HOME: codexHome, GW_API_KEY: options.key },
  };
}

async function prepareGemini(home: string, options: ToolRunOptions): Promise<Prepared> {
  await mkdir(path.join(home, '.gemini'), { recursive: true });
  await writeFile(path.join(home, '.gemini', 'settings.json'), JSON.stringify({
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 1 },
    // trust: its tools run without a confirmation prompt (headless mode cannot answer one).
    ...(options.session?.mcp ? { mcpServers: { gw: { httpUrl: `${options.gwUrl}/mcp`, headers: mcpHeaders(options), trust: true } } } : {}),
  }));
  return {
    args: ['-p', options.prompt, '-m', options.model, '-o', 'json'],
    env: {
      GOOGLE_GEMINI_BASE_URL: options.gwUrl, GEMINI_API_KEY: options.key, GEMINI_CLI_TRUST_WORKSPACE: 'true',
      // Gemini CLI sends no session id of its own; its custom-header setting names the run's.
      ...(options.session ? { GEMINI_CLI_CUSTOM_HEADERS: `x-gw-session: ${options.session.id}` } : {}),
    },
  };
}

const OPENCODE_BASE_PATHS: Record<OpencodeSdk, string> = {
  '@ai-sdk/openai-compatible': '/v1', '@ai-sdk/openai': '/v1', '@ai-sdk/anthropic': '/v1', '@ai-sdk/google': '/v1beta',
};

async function prepareOpencode(home: string, options: ToolRunOptions): Promise<Prepared> {
  const sdk = options.opencodeSdk ?? '@ai-sdk/openai-compatible';
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: {
      gw: {
        npm: sdk, name: 'gw',
        options: {
          baseURL: `${options.gwUrl}${OPENCODE_BASE_PATHS[sdk]}`, apiKey: '{env:GW_API_KEY}',
          // opencode sends its own x-session-id to the model only; x-gw-session (which wins) names the run's session everywhere.
          ...(options.session ? { headers: { 'x-gw-session': options.session.id } } : {}),
        },
        models: { [options.model]: { name: options.model } },
      },
    },
    ...(options.session?.mcp ? { mcp: { gw: { type: 'remote', url: `${options.gwUrl}/mcp`, headers: mcpHeaders(options), enabled: true, oauth: false } } } : {}),
  };
  const configFile = path.join(home, 'opencode.json');
  await writeFile(configFile, JSON.stringify(config, null, 2));
  return {
    args: ['run', '-m', `gw/${options.model}`, '--format', 'json', options.prompt],
    env: {
      OPENCODE_CONFIG: configFile, GW_API_KEY: options.key,
      OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      // Its background install of @opencode-ai/plugin goes nowhere (failures are ignored).
      npm_config_registry: 'http://127.0.0.1:9/',
    },
  };
}

const PREPARE: Record<CodingTool, (home: string, options: ToolRunOptions) => Promise<Prepared>> = {
  claude: prepareClaude, codex: prepareCodex, gemini: prepareGemini, opencode: prepareOpencode,
};

function jsonLines(text: string): Array<WireJson> {
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as WireJson];
    } catch {
      return [];
    }
  });
}

function parseJson(text: string): WireJson {
  try {
    return JSON.parse(text.slice(text.indexOf('{'))) as WireJson;
  } catch {
    return {};
  }
}

/** The final text and tool-call count, read from each tool's documented machine output. */
function readOutput(tool: CodingTool, stdout: string): Pick<ToolRun, 'finalText' | 'toolCalls'> {
  switch (tool) {
    case 'claude': { // --output-format json: one result object
      const result = parseJson(stdout);
      return { finalText: result.subtype === 'success' && result.is_error === false ? String(result.result ?? '') : '', toolCalls: undefined };
    }
    case 'codex': { // --json: JSONL thread events
      const events = jsonLines(stdout);
      const messages = events.filter((event) => event.type === 'item.completed' && event.item?.type === 'agent_message');
      const completed = events.some((event) => event.type === 'turn.completed');
      return { finalText: completed ? String(messages.at(-1)?.item?.text ?? '') : '', toolCalls: undefined };
    }
    case 'gemini': { // -o json: one object with response and stats
      const result = parseJson(stdout);
      return { finalText: String(result.response ?? ''), toolCalls: result.stats?.tools?.totalCalls };
    }
    case 'opencode': { // --format json: JSONL parts
      const events = jsonLines(stdout);
      const texts = events.filter((event) => event.type === 'text').map((event) => String(event.part?.text ?? ''));
      return { finalText: texts.at(-1) ?? '', toolCalls: events.filter((event) => event.type === 'tool_use').length };
    }
  }
}

export async function runCodingTool(tool: CodingTool, options: ToolRunOptions): Promise<ToolRun> {
  const home = await mkdtemp(path.join(os.tmpdir(), `gw-${tool}-home-`));
  const workDir = await mkdtemp(path.join(os.tmpdir(), `gw-${tool}-work-`));
  try {
    const run = await runIn(tool, home, workDir, options);
    await options.inspectWorkDir?.(workDir);
    return run;
  } finally {
    await Promise.all([home, workDir].map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

async function runIn(tool: CodingTool, home: string, workDir: string, options: ToolRunOptions): Promise<ToolRun> {
  const prepared = await PREPARE[tool](home, options);
  // Node for the tools that are Node scripts (Codex's launcher, Gemini CLI); nothing else of the developer's.
  const env: NodeJS.ProcessEnv = { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8', TMPDIR: os.tmpdir(), ...prepared.env };
  const child = spawn(toolBinary(tool), prepared.args, { cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 100_000);
  const code = await new Promise<number | string>((resolve) => {
    child.once('error', (error) => { stderr += String(error); resolve('spawn-error'); });
    child.once('close', (exitCode, signal) => resolve(exitCode ?? signal ?? 'unknown'));
  });
  clearTimeout(timer);
  return { code, stdout, stderr, ...readOutput(tool, stdout) };
}
