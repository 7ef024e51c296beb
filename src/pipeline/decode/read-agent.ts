// Which client made a call, as `name/version` (`claude-code/2.1.197`, `codex/0.169.0`): the audit
// record's `agent` (docs/sessions.md). Read from the User-Agent, normalized for the clients whose
// product token is not their name (real-clients.md records what each sends); the Google GenAI SDK
// names itself in x-goog-api-client when the User-Agent is a runtime's. Bounded and
// charset-checked: a User-Agent is the caller's free text.
import type { HeaderBag } from './read-session.js';

/** Product tokens of known clients → the name the record uses. */
const KNOWN_PRODUCTS: Record<string, string> = {
  'claude-cli': 'claude-code',
  'codex_exec': 'codex',
  'codex_cli_rs': 'codex',
  'codex-tui': 'codex',
  'geminicli': 'gemini-cli',
  'geminicli-tui': 'gemini-cli',
  'geminicli-noninteractive': 'gemini-cli',
  'opencode': 'opencode',
  'openai/js': 'openai-js',
  'openai/python': 'openai-python',
  'anthropic/js': 'anthropic-js',
  'anthropic/python': 'anthropic-python',
  'google-genai-sdk': 'google-genai',
};

const AGENT_MAX_LENGTH = 64;
const NAME = /^[a-z0-9][a-z0-9._-]*$/;
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]*$/;

/** A client's User-Agent repeats on every call: each distinct pair is read once (bounded: cleared when full). */
const seen = new Map<string, string | null>();
const SEEN_LIMIT = 512;

export function readAgent(headers: HeaderBag): string | null {
  const userAgent = first(headers['user-agent']) ?? '';
  const googleClient = first(headers['x-goog-api-client']) ?? '';
  const key = `${userAgent}\n${googleClient}`;
  const known = seen.get(key);
  if (known !== undefined) return known;
  const agent = agentFrom(userAgent, googleClient);
  if (seen.size >= SEEN_LIMIT) seen.clear();
  seen.set(key, agent);
  return agent;
}

function agentFrom(userAgent: string, googleClient: string): string | null {
  const fromUserAgent = userAgent ? agentOf(userAgent) : null;
  if (fromUserAgent !== null && !isRuntime(fromUserAgent)) return fromUserAgent;
  const fromGoogle = googleClient ? agentOf(googleClient) : null;
  return fromGoogle ?? fromUserAgent;
}

/** The first product of a User-Agent-like header, as `name/version`, or null. */
export function agentOf(text: string): string | null {
  // "OpenAI/JS 6.49.0", "Anthropic/JS 1.12.0": a two-part name, then the version after a space.
  const sdk = /^([A-Za-z]+\/(?:JS|Python)) v?([0-9][^\s;()]*)/.exec(text);
  const product = sdk ? null : /^([A-Za-z0-9._-]+)\/v?([0-9][^\s/;()]*)/.exec(text);
  const match = sdk ?? product;
  if (match === null) return null;
  const raw = match[1]!.toLowerCase();
  const name = KNOWN_PRODUCTS[raw] ?? raw;
  const version = match[2]!;
  if (!NAME.test(name) || !VERSION.test(version)) return null;
  const agent = `${name}/${version}`;
  return agent.length <= AGENT_MAX_LENGTH ? agent : null;
}

/** A User-Agent that names a runtime or HTTP library rather than the client (Bun's fetch, undici, node). */
function isRuntime(agent: string): boolean {
  return /^(bun|node|undici|node-fetch|axios|python-requests|python-httpx|go-http-client)\//.test(agent);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
