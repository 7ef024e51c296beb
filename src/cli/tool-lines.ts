// The "point your tools at it" lines of gw serve's banners (standalone, hub, sidecar):
// one shell line per coding tool and SDK that runs as printed, pasted into bash or zsh,
// with the gateway's URL, a credential it accepts and a model it routes. Notes are shell
// comments, so a whole line can be pasted. test/e2e/banner-lines.test.ts runs every one.
// Pure: serve.ts gathers the facts.

export interface ToolLinesInput {
  /** The gateway's origin, e.g. http://127.0.0.1:8080. */
  url: string;
  /** A shell word for the credential: the first start's key, `$(gw token)`, or any value for a sidecar. */
  credential: string;
  /** A model the gateway routes, or null when it is not known (the line then says so). */
  model: string | null;
  /** How to call `gw run` for this gateway (`gw run`, or with GW_URL and --home when not the defaults). */
  gwRun: string;
}

/** A model to suggest from the providers a gateway (or its hub) serves: a real one when there is one, else the mock. */
export function suggestModel(providers: readonly string[]): string | null {
  const preferred: Array<[string, string]> = [['anthropic', 'anthropic/claude-sonnet-4-5'], ['openai', 'openai/gpt-4.1'], ['gemini', 'gemini/gemini-2.5-flash']];
  for (const [provider, model] of preferred) if (providers.includes(provider)) return model;
  return providers.includes('mock') ? 'mock/echo' : null;
}

/** Codex's provider for gw as one `-c` value (TOML inline table); also used by gw run. */
export function codexProvider(url: string): string {
  return `{ name = "gw", base_url = ${JSON.stringify(`${url}/v1`)}, env_key = "GW_API_KEY", wire_api = "responses", supports_websockets = true }`;
}

/** opencode's provider for gw (OpenAI-compatible chat) as JSON for OPENCODE_CONFIG_CONTENT; also used by gw run. */
export function opencodeProvider(url: string, apiKey: string, model: string): Record<string, unknown> {
  return { npm: '@ai-sdk/openai-compatible', name: 'gw', options: { baseURL: `${url}/v1`, apiKey }, models: { [model]: { name: model } } };
}

/** Single-quoted for the shell (the JSON and TOML inside keep their double quotes). */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const LABEL_WIDTH = 16;

export function toolLines(input: ToolLinesInput): string[] {
  const { url, credential } = input;
  const model = input.model ?? '<model>';
  const unknown = input.model === null ? '   # <model>: one your hub routes' : '';
  // opencode reads the key from its config; an environment reference keeps `$(gw token)` a shell expansion.
  const opencode = { provider: { gw: opencodeProvider(url, '{env:GW_API_KEY}', model) }, model: `gw/${model}` };
  const rows: Array<[string, string]> = [
    ['Claude Code', `ANTHROPIC_BASE_URL=${url} ANTHROPIC_AUTH_TOKEN=${credential} claude --model ${model}${unknown}`],
    ['Codex', `GW_API_KEY=${credential} codex -c model_provider=gw -c ${quote(`model_providers.gw=${codexProvider(url)}`)} -c model=${model}${unknown}`],
    // Gemini CLI takes a base URL only with security.auth.selectedType "gemini-api-key" in its user
    // settings, which no environment variable sets: gw run gives it a settings file for the run.
    ['Gemini CLI', `${input.gwRun} gemini -m ${model}   # it needs a settings file to use a base URL; gw run writes one for the run${input.model === null ? ' (<model>: one your hub routes)' : ''}`],
    ['opencode', `GW_API_KEY=${credential} OPENCODE_CONFIG_CONTENT=${quote(JSON.stringify(opencode))} opencode${unknown}`],
    ['OpenAI SDKs', `export OPENAI_BASE_URL=${url}/v1 OPENAI_API_KEY=${credential}`],
    ['Anthropic SDKs', `export ANTHROPIC_BASE_URL=${url} ANTHROPIC_API_KEY=${credential}`],
    ['Google GenAI', `export GOOGLE_GEMINI_BASE_URL=${url} GEMINI_API_KEY=${credential}`],
  ];
  return [
    ...rows.map(([label, line]) => `  ${label.padEnd(LABEL_WIDTH)}${line}`),
    `Or let gw set a tool up for one run (its own arguments follow): ${input.gwRun} claude | codex | gemini | opencode`,
  ];
}
