// What `gw serve` prints once it listens: the mode, where things live, and lines to paste
// that run as written for each coding tool and the SDKs, with a model the gateway can serve
// (a tool's own default model may be one no provider here answers).
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { RunningGateway } from '../gateway/start-gateway.js';
import type { SidecarLogin } from '../sidecar/hub-session.js';
import { resolveHome } from '../config/home.js';
import { shellCommand, shellQuote } from '../shell-quote.js';

/** What a sidecar accepts from local tools, which insist on sending some key. */
export const SIDECAR_CREDENTIAL = 'gw-sidecar';

/** Whether `gw` runs as typed: the banner's gw lines say how when it does not. */
function gwOnPath(env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    try {
      accessSync(path.join(dir, 'gw'), constants.X_OK);
      return true;
    } catch { /* not here */ }
  }
  return false;
}

function pick(models: readonly string[], prefer: RegExp): string | null {
  return models.find((id) => prefer.test(id)) ?? models.find((id) => !/^(hub\/)?mock\//.test(id)) ?? models[0] ?? null;
}

const TOOL_MODELS: Record<'claude' | 'codex' | 'gemini' | 'opencode', RegExp> = { claude: /claude/, codex: /gpt|o\d|codex/, gemini: /gemini/, opencode: /gpt|o\d|codex/ };

/** The model a tool is best pointed at among those served: its own family's, else any real one (gw run on a sidecar). */
export function modelForTool(tool: keyof typeof TOOL_MODELS, models: readonly string[]): string | null {
  return pick(models, TOOL_MODELS[tool]);
}

/**
 * A sidecar's models as the hub named them, written so that they go through the hub: a name a
 * local provider of the sidecar would answer (mock/echo: the sidecar's own mock) gets `hub/`.
 */
export function throughHub(models: readonly string[], localProviders: readonly string[]): string[] {
  const local = localProviders.filter((name) => name !== 'hub');
  return models.map((model) => (local.some((name) => model.startsWith(`${name}/`)) ? `hub/${model}` : model));
}

/** Where this gateway is, as `gw run` and `gw token` in another shell of this machine find it. */
export interface GwTarget {
  url: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

/** A wildcard listener is reached on loopback from this machine. */
export function localUrl(url: string): string {
  return url.replace(/^(https?:\/\/)(0\.0\.0\.0|\[::\])([:/]|$)/, '$1127.0.0.1$3');
}

/** `gw run` / `gw token` as typed in another shell: --home only when it is not the one gw finds by itself; the home leads them to this gateway on any port (serve-address.ts). */
function gwCommand(command: 'run' | 'token', target: GwTarget): string {
  const home = target.home;
  return shellCommand(['gw', command, ...(home === resolveHome(undefined, target.env) ? [] : ['--home', home])]);
}

/**
 * The lines for each tool, with the credential they should send and a model they can use. Each
 * runs as pasted whole into bash or zsh: notes are shell comments, SDK lines export.
 * test/e2e/laptop-journey/banner-lines.test.ts runs every one.
 */
function toolLines(target: GwTarget, credential: string, models: readonly string[]): string[] {
  const base = localUrl(target.url);
  const gwRun = gwCommand('run', target);
  const claude = modelForTool('claude', models);
  const gpt = modelForTool('codex', models);
  const gemini = modelForTool('gemini', models);
  // Model names come from the providers (a sidecar's from its hub): quoted like any argument.
  const flag = (name: string, model: string | null) => (model === null ? '' : ` ${name} ${shellQuote(model)}`);
  const codexProvider = shellQuote(`model_providers.gw={name="gw",base_url="${base}/v1",env_key="GW_API_KEY",wire_api="responses"}`);
  return [
    `  Claude Code    ANTHROPIC_BASE_URL=${shellQuote(base)} ANTHROPIC_AUTH_TOKEN=${credential} claude${flag('--model', claude)}`,
    `  Codex          GW_API_KEY=${credential} codex -c model_provider='"gw"' -c ${codexProvider}${flag('-m', gpt)}`,
    `  Gemini CLI     ${gwRun} gemini${flag('-m', gemini)}   # Gemini CLI takes a gateway only with a settings file: gw run writes one for the run`,
    `  opencode       ${gwRun} opencode${gpt === null ? '' : ` -m ${shellQuote(`gw/${gpt}`)}`}`,
    `  OpenAI SDKs    export OPENAI_BASE_URL=${shellQuote(`${base}/v1`)} OPENAI_API_KEY=${credential}`,
    `  Anthropic SDK  export ANTHROPIC_BASE_URL=${shellQuote(base)} ANTHROPIC_API_KEY=${credential}`,
    `  Google GenAI   export GOOGLE_GEMINI_BASE_URL=${shellQuote(base)} GEMINI_API_KEY=${credential}`,
    `  or any tool    ${gwRun} claude   # or codex, gemini, opencode: set up for this run; the tool's own arguments follow`,
    ...(gwOnPath(target.env) ? [] : ['  (gw is not on your PATH: run npm link once in the gw folder, or write npx gw there)']),
  ];
}

/** Sidecar mode (DESIGN.md, "Modes"): says so, names the hub and person, and how tools connect with no key. */
export function describeSidecarStart(gateway: RunningGateway, home: string, login: SidecarLogin, models: readonly string[], env: NodeJS.ProcessEnv): string {
  const target: GwTarget = { url: gateway.url, home, env };
  const local = gateway.providerNames.filter((name) => name !== 'hub' && name !== 'mock');
  // mock/… is the sidecar's own: every other model goes through the hub.
  return `${[
    `gw serve: sidecar mode, listening on ${gateway.url}`,
    `  hub ${login.hub} · ${login.person ? `logged in as ${login.person}${login.team ? ` (team ${login.team})` : ''}` : 'token from GW_TOKEN'} · token from ${login.source}`,
    `  every model but mock/… (answered here; hub/mock/… goes to the hub's) goes through the hub${local.length > 0 ? `, except local providers added with gw providers add: ${local.join(', ')}` : ''}; audit ${path.join(home, 'audit', 'audit.jsonl')}`,
    ...gateway.providerWarnings.map((warning) => `  notice: ${warning}`),
    `Point your tools at it; no key is needed (requests are served as you; tools that insist on one may send any, like ${SIDECAR_CREDENTIAL}):`,
    ...toolLines(target, SIDECAR_CREDENTIAL, throughHub(models, gateway.providerNames)),
    `Your own requests: ${gateway.url}/ui`,
  ].join('\n')}\n`;
}

/** The `gw login --hub` line; a wildcard address (0.0.0.0, ::) is no URL a laptop can use, so that case asks for public_url. */
function describeHubLogin(url: string, publicUrl: string | null): string[] {
  const lines = [`  people log in from their laptops with:  ${shellCommand(['gw', 'login', '--hub', publicUrl ?? url])}`];
  if (publicUrl === null && /^https?:\/\/(0\.0\.0\.0|\[::\])[:/]/.test(url)) {
    lines.push('  (that is every address of this machine: set the one laptops reach with gw settings set public_url https://…)');
  }
  return lines;
}

export function describeStart(gateway: RunningGateway, home: string, models: readonly string[], env: NodeJS.ProcessEnv): string {
  const target: GwTarget = { url: gateway.url, home, env };
  const settings = gateway.services.state.snapshot().settings;
  // A standalone gateway with device login on is a hub: say so, and give the exact line for laptops.
  const hub = settings.device_login;
  const lines = [
    `gw serve: ${hub ? 'hub, ' : ''}standalone mode, listening on ${gateway.url}`,
    ...(hub ? describeHubLogin(gateway.url, settings.public_url) : []),
    `  ${gateway.storage}`,
    `  providers: ${gateway.providerNames.join(', ')}${gateway.providerNames.length === 1 ? ' (no provider keys in the environment: only mock/<anything> models answer)' : ''}`,
    ...gateway.providerWarnings.map((warning) => `  warning: ${warning}`),
  ];
  const key = gateway.bootstrapKey;
  const base = localUrl(gateway.url);
  // With only the mock, every tool's default model would route to a provider that is not configured.
  const usable = gateway.providerNames.length === 1 ? ['mock/echo'] : models;
  if (key) {
    lines.push(
      '',
      'First start: created team "local" and its virtual key. It is shown only this once; store it now:',
      '',
      `  ${key}`,
      '',
      'Try it:',
      `  curl ${shellQuote(`${base}/v1/chat/completions`)} -H "Authorization: Bearer ${key}" -H "content-type: application/json" \\`,
      `    -d '{"model":"mock/echo","messages":[{"role":"user","content":"hello"}]}'`,
    );
  }
  // After the first start the key is not shown again: gw token makes an hour-long one in the same home.
  lines.push(
    'Point your tools at it:',
    ...toolLines(target, key ?? `$(${gwCommand('token', target)})`, usable),
    `Admin console: ${base}/ui (sign in with a token from gw admin tokens create --name YOU)`,
  );
  return `${lines.join('\n')}\n`;
}
