// `gw serve`: runs the gateway in the foreground until SIGINT/SIGTERM.
import path from 'node:path';
import type { Command } from 'commander';
import { resolveServeConfig, type ServeFlags } from '../../config/serve-config.js';
import type { RunningGateway } from '../../server/start-gateway.js';
import { CliExit, type CliContext } from '../cli-context.js';

export function registerServeCommand(program: Command, context: CliContext): void {
  program.command('serve')
    .description('run the gateway (default http://127.0.0.1:8080)')
    .option('--host <host>', 'address to listen on (GW_HOST; default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (GW_PORT; default 8080)')
    .option('--home <dir>', 'state folder (GW_HOME; default the platform config folder)')
    .option('--tls-cert <file>', 'PEM certificate, to terminate TLS in gw itself')
    .option('--tls-key <file>', 'PEM private key for --tls-cert')
    .option('--log-level <level>', 'pino log level (GW_LOG_LEVEL; default info)')
    .action(async (flags: ServeFlags) => runServe(flags, context));
}

async function runServe(flags: ServeFlags, context: CliContext): Promise<void> {
  let config;
  let gateway: RunningGateway;
  try {
    config = resolveServeConfig(flags, context.env);
    // Loaded here, not at the top, so `gw keys list` and friends never pay for fastify and pino.
    const [{ startGateway }, { createLogger }] = await Promise.all([import('../../server/start-gateway.js'), import('../../logger.js')]);
    gateway = await startGateway({ ...config, env: context.env, logger: createLogger({ level: config.logLevel }) });
  } catch (error) {
    throw new CliExit(1, error instanceof Error ? error.message : String(error));
  }
  context.stdout.write(describeStart(gateway, config.home));
  await new Promise<void>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) process.exit(130);
      context.stderr.write(`gw: ${signal}: finishing in-flight requests, then stopping (again to force)\n`);
      void gateway.stop().then(resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  context.stderr.write('gw: stopped; audit trail flushed\n');
}

function describeStart(gateway: RunningGateway, home: string): string {
  const lines = [
    `gw serve: standalone mode, listening on ${gateway.url}`,
    `  state ${path.join(home, 'state.json')} · audit ${path.join(home, 'audit', 'audit.jsonl')}`,
    `  providers: ${gateway.providerNames.join(', ')}${gateway.providerNames.length === 1 ? ' (no provider keys in the environment: only mock/<anything> models answer)' : ''}`,
    ...gateway.providerWarnings.map((warning) => `  warning: ${warning}`),
  ];
  const key = gateway.bootstrapKey;
  if (key) {
    const base = gateway.url;
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
      `  Claude Code      ANTHROPIC_BASE_URL=${base} ANTHROPIC_AUTH_TOKEN=${key} claude`,
      `  Gemini CLI       GOOGLE_GEMINI_BASE_URL=${base} GEMINI_API_KEY=${key} gemini`,
      `  OpenAI SDKs      OPENAI_BASE_URL=${base}/v1 OPENAI_API_KEY=${key}`,
      `  Codex            openai_base_url = "${base}/v1" in ~/.codex/config.toml, CODEX_API_KEY=${key}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
