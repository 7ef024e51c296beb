// How `gw run` points each coding tool at gw (src/cli/tool-launch.ts, tool-mcp-config.ts): with a
// gateway that fronts MCP servers, every tool gets gw's /mcp as an MCP server named gw, and the
// run's one session id on its model calls and its MCP calls; the credential never on argv, and
// never in a file the user owns.
import { describe, expect, it } from 'vitest';
import { launchFor, type LaunchInput } from '../../src/cli/tool-launch.js';

const URL = 'http://127.0.0.1:8080';
const KEY = 'sk-gw-test-credential-0123456789';
const SESSION = '3f1c2a9e-5b7d-4e21-9c8a-1d2e3f4a5b6c';
const input = (more: Partial<LaunchInput> = {}): LaunchInput => ({ url: URL, credential: KEY, model: null, args: [], mcp: true, sessionId: SESSION, ...more });

/** The values of every `-c name=value` override, by name. */
function overrides(args: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  args.forEach((arg, index) => {
    if (arg !== '-c') return;
    const pair = args[index + 1]!;
    found.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  });
  return found;
}

interface GeminiSettings { mcpServers?: Record<string, unknown>; general?: unknown; security: { auth: unknown } }
interface OpencodeConfig { mcp?: { gw: { headers: unknown } }; provider: { gw: { options: { headers?: unknown } } } }

function geminiSettings(launch: ReturnType<typeof launchFor>): GeminiSettings {
  return JSON.parse(launch.files['.gemini/settings.json']!) as GeminiSettings;
}

function opencodeConfig(launch: ReturnType<typeof launchFor>): OpencodeConfig {
  return JSON.parse(launch.env.OPENCODE_CONFIG_CONTENT!) as OpencodeConfig;
}

describe('gw run, no credential on the command line', () => {
  it.each(['claude', 'codex', 'gemini', 'opencode'] as const)('%s without MCP', (tool) => {
    expect(launchFor(tool, input({ mcp: false })).args.join(' ')).not.toContain(KEY);
  });
  it.each(['codex', 'gemini', 'opencode'] as const)('%s with MCP: argv and files name the key by its variable', (tool) => {
    const launch = launchFor(tool, input({ args: ['exec', 'hi'] }));
    expect(launch.args.join(' ')).not.toContain(KEY);
    expect(Object.values(launch.files).join('')).not.toContain(KEY);
  });
});

describe('gw run codex', () => {
  it('adds gw\'s /mcp as mcp_servers.gw, with the key from GW_API_KEY and the run\'s session on it and on the model provider', () => {
    const launch = launchFor('codex', input({ args: ['exec', 'hi'] }));
    const set = overrides(launch.args);
    expect(set.get('mcp_servers.gw.url')).toBe(`"${URL}/mcp"`);
    expect(set.get('mcp_servers.gw.bearer_token_env_var')).toBe('"GW_API_KEY"');
    expect(set.get('mcp_servers.gw.required')).toBe('true');
    expect(set.get('mcp_servers.gw.http_headers')).toBe(`{ "x-gw-session" = "${SESSION}" }`);
    expect(set.get('model_providers.gw')).toContain(`http_headers = { "x-gw-session" = "${SESSION}" }`);
    expect(launch.env.GW_API_KEY).toBe(KEY);
    // gw's overrides come first: the user's own -c (an approval mode, say) and arguments follow.
    expect(launch.args.slice(-2)).toEqual(['exec', 'hi']);
  });
  it('adds nothing for MCP when the gateway fronts no MCP server', () => {
    const launch = launchFor('codex', input({ mcp: false }));
    expect(launch.args.join(' ')).not.toMatch(/mcp_servers|x-gw-session/);
  });
  it.each([[['resume', '--last']], [['exec', 'resume', 'abc', 'go on']], [['fork']]])('a run that resumes (%j) keeps Codex\'s own session: /mcp without one', (args) => {
    const set = overrides(launchFor('codex', input({ args })).args);
    expect(set.get('mcp_servers.gw.url')).toBe(`"${URL}/mcp"`);
    expect(set.has('mcp_servers.gw.http_headers')).toBe(false);
    expect(set.get('model_providers.gw')).not.toContain('x-gw-session');
  });
  it('a prompt that says resume is not a resumed run', () => {
    expect(overrides(launchFor('codex', input({ args: ['exec', 'please resume the work'] })).args).has('mcp_servers.gw.http_headers')).toBe(true);
  });
});

describe('gw run gemini', () => {
  it('adds mcpServers.gw to the run\'s settings, next to the user\'s own servers and settings', () => {
    const user = { mcpServers: { mine: { command: 'my-server' } }, general: { maxAttempts: 1 }, security: { auth: { useExternal: false } } };
    const settings = geminiSettings(launchFor('gemini', input({ geminiSettings: JSON.stringify(user) })));
    expect(settings.mcpServers).toEqual({
      mine: { command: 'my-server' },
      gw: { httpUrl: `${URL}/mcp`, headers: { Authorization: 'Bearer ${GEMINI_API_KEY}', 'x-gw-session': SESSION } },
    });
    expect(settings.general).toEqual({ maxAttempts: 1 });
    expect(settings.security.auth).toEqual({ useExternal: false, selectedType: 'gemini-api-key' });
  });
  it('sends the session on the model calls through GEMINI_CLI_CUSTOM_HEADERS, after the user\'s own headers', () => {
    expect(launchFor('gemini', input()).env.GEMINI_CLI_CUSTOM_HEADERS).toBe(`x-gw-session: ${SESSION}`);
    expect(launchFor('gemini', input({ geminiCustomHeaders: 'x-team: blue' })).env.GEMINI_CLI_CUSTOM_HEADERS).toBe(`x-team: blue, x-gw-session: ${SESSION}`);
    // Gemini CLI has no session id of its own: a resumed run still gets the one gw issues.
    expect(launchFor('gemini', input({ args: ['--resume', 'latest'] })).env.GEMINI_CLI_CUSTOM_HEADERS).toBe(`x-gw-session: ${SESSION}`);
  });
  it('without MCP: no server, no header, the user\'s servers as they were', () => {
    const launch = launchFor('gemini', input({ mcp: false, geminiSettings: JSON.stringify({ mcpServers: { mine: { command: 'x' } } }) }));
    expect(geminiSettings(launch).mcpServers).toEqual({ mine: { command: 'x' } });
    expect(launch.env.GEMINI_CLI_CUSTOM_HEADERS).toBeUndefined();
  });
});

describe('gw run opencode', () => {
  it('adds mcp.gw (remote) and the session on the provider\'s headers', () => {
    const config = opencodeConfig(launchFor('opencode', input({ args: ['run', 'hi'] })));
    expect(config.mcp).toEqual({ gw: { type: 'remote', url: `${URL}/mcp`, headers: { Authorization: 'Bearer {env:GW_API_KEY}', 'x-gw-session': SESSION }, enabled: true, oauth: false } });
    expect(config.provider.gw.options.headers).toEqual({ 'x-gw-session': SESSION });
  });
  it.each([[['run', '--continue', 'more']], [['run', '-s', 'ses_abc', 'more']], [['run', '--session=ses_abc', 'more']]])('a run that resumes (%j) keeps opencode\'s own session', (args) => {
    const config = opencodeConfig(launchFor('opencode', input({ args })));
    expect(config.mcp?.gw.headers).toEqual({ Authorization: 'Bearer {env:GW_API_KEY}' });
    expect(config.provider.gw.options.headers).toBeUndefined();
  });
  it('without MCP: no mcp entry and no session header', () => {
    const config = opencodeConfig(launchFor('opencode', input({ mcp: false })));
    expect(config.mcp).toBeUndefined();
    expect(config.provider.gw.options.headers).toBeUndefined();
  });
});

describe('gw run claude (unchanged)', () => {
  it('names the session and hands it to /mcp', () => {
    const launch = launchFor('claude', input({ args: ['-p', 'hi'] }));
    expect(launch.args.slice(0, 2)).toEqual(['--session-id', SESSION]);
    const config = JSON.parse(launch.args[3]!) as { mcpServers: { gw: { url: string; headers: Record<string, string> } } };
    expect(config.mcpServers.gw).toEqual({ type: 'http', url: `${URL}/mcp`, headers: { Authorization: `Bearer ${KEY}`, 'x-gw-session': SESSION } });
  });
});
