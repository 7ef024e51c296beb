// What `gw serve` prints once it listens: the mode, where things live, and lines to paste
// that run as written for each coding tool and the SDKs, with a model the gateway can serve
// (a tool's own default model may be one no provider here answers).
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { RunningGateway } from '../gateway/start-gateway.js';
import type { SidecarLogin } from '../sidecar/hub-session.js';

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
  return models.find((id) => prefer.test(id)) ?? models.find((id) => !id.startsWith('mock/')) ?? models[0] ?? null;
}

/** The lines for each tool, with the credential they should send and a model they can use. */
function toolLines(base: string, credential: string, models: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const claude = pick(models, /claude/);
  const gpt = pick(models, /gpt|o\d|codex/);
  const gemini = pick(models, /gemini/);
  const flag = (name: string, model: string | null) => (model === null ? '' : ` ${name} ${model}`);
  const codexProvider = `'model_providers.gw={name="gw",base_url="${base}/v1",env_key="GW_API_KEY",wire_api="responses"}'`;
  return [
    `  Claude Code   ANTHROPIC_BASE_URL=${base} ANTHROPIC_AUTH_TOKEN=${credential} claude${flag('--model', claude)}`,
    `  Codex         GW_API_KEY=${credential} codex -c model_provider='"gw"' -c ${codexProvider}${flag('-m', gpt)}`,
    `  Gemini CLI    gw run gemini${flag('-m', gemini)}   (Gemini CLI needs a settings file to use a gateway: gw run writes one for the run)`,
    `  opencode      gw run opencode${gpt === null ? '' : ` -m gw/${gpt}`}`,
    `  OpenAI SDKs   OPENAI_BASE_URL=${base}/v1 OPENAI_API_KEY=${credential}`,
    `  Anthropic SDK ANTHROPIC_BASE_URL=${base} ANTHROPIC_API_KEY=${credential}`,
    `  or any tool   gw run claude|codex|gemini|opencode [its own arguments]`,
    ...(gwOnPath(env) ? [] : ['  (gw is not on your PATH: run npm link once in the gw folder, or write npx gw there)']),
  ];
}

/** Sidecar mode (DESIGN.md, "Modes"): says so, names the hub and person, and how tools connect with no key. */
export function describeSidecarStart(gateway: RunningGateway, home: string, login: SidecarLogin, models: readonly string[], env: NodeJS.ProcessEnv): string {
  const local = gateway.providerNames.filter((name) => name !== 'hub' && name !== 'mock');
  return `${[
    `gw serve: sidecar mode, listening on ${gateway.url}`,
    `  hub ${login.hub} · ${login.person ? `logged in as ${login.person}${login.team ? ` (team ${login.team})` : ''}` : 'token from GW_TOKEN'} · token from ${login.source}`,
    `  every model goes through the hub${local.length > 0 ? `, except local providers added with gw providers add: ${local.join(', ')}` : ''}; audit ${path.join(home, 'audit', 'audit.jsonl')}`,
    ...gateway.providerWarnings.map((warning) => `  notice: ${warning}`),
    `Point your tools at it; no key is needed (requests are served as you; tools that insist on one may send any, like ${SIDECAR_CREDENTIAL}):`,
    ...toolLines(gateway.url, SIDECAR_CREDENTIAL, models, env),
    `Your own requests: ${gateway.url}/ui`,
  ].join('\n')}\n`;
}

/** The `gw login --hub` line; a wildcard address (0.0.0.0, ::) is no URL a laptop can use, so that case asks for public_url. */
function describeHubLogin(url: string, publicUrl: string | null): string[] {
  const lines = [`  people log in from their laptops with:  gw login --hub ${publicUrl ?? url}`];
  if (publicUrl === null && /^https?:\/\/(0\.0\.0\.0|\[::\])[:/]/.test(url)) {
    lines.push('  (that is every address of this machine: set the one laptops reach with gw settings set public_url https://…)');
  }
  return lines;
}

export function describeStart(gateway: RunningGateway, models: readonly string[], env: NodeJS.ProcessEnv): string {
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
  if (key) {
    const base = gateway.url;
    // With only the mock, every tool's default model would route to a provider that is not configured.
    const usable = gateway.providerNames.length === 1 ? ['mock/echo'] : models;
    lines.push(
      '',
      'First start: created team "local" and its virtual key. It is shown only this once; store it now:',
      '',
      `  ${key}`,
      '',
      'Try it:',
      `  curl ${base}/v1/chat/completions -H "Authorization: Bearer ${key}" -H "content-type: application/json" \\`,
      `    -d '{"model":"mock/echo","messages":[{"role":"user","content":"hello"}]}'`,
      'Point your tools at it:',
      ...toolLines(base, key, usable, env),
      `Admin console: ${base}/ui (sign in with a token from gw admin tokens create --name YOU)`,
    );
  }
  return `${lines.join('\n')}\n`;
}
