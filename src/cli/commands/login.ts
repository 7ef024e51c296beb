// `gw login [--hub URL] [--no-browser]`, `gw logout`, `gw whoami`: the client side
// of device login (RFC 8628). The code and URL go to stderr; on a terminal, Enter
// opens the browser (the page asks for the code: typing it is the phishing check).
import os from 'node:os';
import type { Command } from 'commander';
import { runAdminLogin } from '../admin-login.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { readTokenEnvironment } from '../../config/login-env.js';
import { CredentialStore } from '../../login/credential-store.js';
import { LoginFailure, abortableSleep, waitForApproval } from '../../login/device-login.js';
import { exchangeAtHub, requestDeviceCode, revokeAtHub, type DeviceAuthorization } from '../../login/hub-client.js';
import { systemKeychain } from '../../login/keychain.js';
import { shellCommand } from '../../shell-quote.js';
import { isPortFree, nextFreePort } from '../free-port.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
const USER_AGENT = `gw-cli/0.1.0 (${process.platform}; node ${process.versions.node})`;
const EXIT_CODES: Record<LoginFailure['reason'], number> = { cancelled: 130, denied: 1, expired: 1, refused: 1 };

interface LoginOptions { hub?: string; browser: boolean; home?: string; admin?: boolean }

export function registerLoginCommands(program: Command, context: CliContext): void {
  program.command('login')
    .description('Log in to a gw hub with device login; then gw serve runs as your sidecar')
    .option('--hub <url>', 'the hub, like https://gw.example.com (default: the last one, or GW_HUB)')
    .option('--no-browser', 'do not offer to open the browser')
    .option('--admin', 'keep an admin token (from GW_ADMIN_TOKEN or standard input) for gw … --hub URL instead')
    .option('--home <dir>', HOME_HELP)
    .action(async (options: LoginOptions) => {
      if (!options.admin) return runLogin(options, context);
      if (options.hub === undefined) throw new CliExit(2, 'gw login --admin needs --hub URL');
      return runAdminLogin(normalizeHub(options.hub), options.home, context);
    });
  program.command('logout')
    .description('Revoke the token at the hub and delete it from this computer')
    .option('--home <dir>', HOME_HELP)
    .action(async (options: { home?: string }) => runLogout(options, context));
  program.command('whoami')
    .description('Show the person, team and hub of this login, and where the token is kept')
    .option('--home <dir>', HOME_HELP)
    .action(async (options: { home?: string }) => runWhoami(options, context));
}

function credentialStore(context: CliContext, home?: string): CredentialStore {
  return new CredentialStore(context.home(home), systemKeychain());
}

function normalizeHub(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text.trim());
  } catch {
    // Not a URL at all (127.0.0.1:8080 has no scheme): the message below says which one it probably meant.
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new CliExit(2, `invalid hub URL "${text}": did you mean ${shellCommand(['gw', 'login', '--hub', probableHubUrl(text.trim())])}?`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The URL a scheme-less hub probably means: http for this machine or a bare IP address (a hub without TLS), else https. */
function probableHubUrl(text: string): string {
  const bare = text.replace(/^[a-z][a-z0-9+.-]*:\/\/?/i, (scheme) => (/^https?:/i.test(scheme) ? scheme : ''));
  if (/^https?:\/\//i.test(bare)) return bare;
  const host = bare.replace(/[:/].*$/, '').toLowerCase();
  const plain = host === 'localhost' || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || bare.startsWith('[');
  return `${plain ? 'http' : 'https'}://${bare}`;
}

async function chooseHub(options: LoginOptions, context: CliContext, store: CredentialStore): Promise<string> {
  const stored = await store.readRecord().catch(() => null);
  const hub = options.hub ?? stored?.hub ?? readTokenEnvironment({ ...context.env, GW_TOKEN: 'x' })?.hub ?? null;
  if (hub === null) throw new CliExit(2, 'which hub? run gw login --hub https://gw.example.com (or set GW_HUB)');
  return normalizeHub(hub);
}

async function runLogin(options: LoginOptions, context: CliContext): Promise<void> {
  const store = credentialStore(context, options.home);
  const hub = await chooseHub(options, context, store);
  if (hub.startsWith('http:') && !/^http:\/\/(localhost|127\.|\[::1\])/.test(hub)) context.stderr.write(`! ${hub} is plain http: your token will cross the network unencrypted\n`);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  try {
    const authorization = await requestDeviceCode(fetch, hub, os.hostname(), USER_AGENT).catch((error: unknown) => {
      throw new CliExit(1, `cannot start a login at ${hub}: ${error instanceof Error ? error.message : String(error)}`);
    });
    await announce(authorization, options, context, controller.signal);
    const issued = await waitForApproval({
      fetch, hub, authorization, userAgent: USER_AGENT, now: Date.now, sleep: abortableSleep, signal: controller.signal,
      onProgress: (event) => reportProgress(context, event),
    });
    if (process.stderr.isTTY) context.stderr.write('\n');
    const saved = await store.save({ hub, token: issued.token, person: issued.person, team: issued.team, now: new Date() });
    if (saved.notice) context.stderr.write(`! ${saved.notice}\n`);
    context.stderr.write(`✓ Logged in to ${hub} as ${issued.person ?? 'unknown'} (team ${issued.team ?? 'unknown'}); token kept in ${saved.where}.\n`);
    context.stderr.write(await nextStep(context, options.home));
  } catch (error) {
    if (error instanceof LoginFailure) throw new CliExit(EXIT_CODES[error.reason], error.message);
    throw error;
  } finally {
    process.removeListener('SIGINT', onSignal);
  }
}

/**
 * What to run next, as typed: gw serve with this login's --home (when it is not the default), on the
 * usual port or, when that is taken (the hub itself, on one machine), on a free one. gw run and
 * gw token then find it through the home (serve-address.ts), on any port.
 */
async function nextStep(context: CliContext, homeFlag: string | undefined): Promise<string> {
  const home = context.home(homeFlag);
  const homeArgs = home === context.home(undefined) ? [] : ['--home', home];
  const port = Number(context.env.GW_PORT ?? '8080');
  if (!Number.isInteger(port) || port <= 0 || port > 65535 || await isPortFree(port)) {
    return `  Now run ${shellCommand(['gw', 'serve', ...homeArgs])}: it becomes your sidecar on http://127.0.0.1:${context.env.GW_PORT ?? '8080'}.\n`;
  }
  const free = await nextFreePort(port);
  return `! port ${port} is taken on this machine (by the hub itself, or another program), so the sidecar cannot use it.\n`
    + `  Now run ${shellCommand(['gw', 'serve', '--port', String(free), ...homeArgs])}: it becomes your sidecar on http://127.0.0.1:${free}`
    + ` (${shellCommand(['gw', 'run', ...homeArgs])} and ${shellCommand(['gw', 'token', ...homeArgs])} find it there).\n`;
}

async function announce(authorization: DeviceAuthorization, options: LoginOptions, context: CliContext, signal: AbortSignal): Promise<void> {
  const minutes = Math.round(authorization.expiresIn / 60);
  context.stderr.write(`! First copy your one-time code: ${authorization.userCode}\n`);
  context.stderr.write(`  Then open ${authorization.verificationUri} and enter it (it expires in ${minutes} minutes).\n`);
  if (!options.browser || !process.stdin.isTTY || !process.stderr.isTTY) return;
  context.stderr.write(`- Press Enter to open ${authorization.verificationUri} in your browser...`);
  const pressed = await new Promise<boolean>((resolve) => {
    const onData = () => { cleanup(); resolve(true); };
    const onAbort = () => { cleanup(); resolve(false); };
    const cleanup = () => { process.stdin.removeListener('data', onData); signal.removeEventListener('abort', onAbort); process.stdin.pause(); };
    process.stdin.once('data', onData).resume();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  if (!pressed) return;
  try {
    const { default: open } = await import('open');
    await open(authorization.verificationUri);
  } catch {
    context.stderr.write(`  (could not open a browser: open ${authorization.verificationUri} yourself)\n`);
  }
}

function reportProgress(context: CliContext, event: { kind: string; secondsLeft: number; interval: number; detail?: string }): void {
  const left = `${Math.floor(event.secondsLeft / 60)}:${String(event.secondsLeft % 60).padStart(2, '0')} left`;
  if (event.kind === 'slow_down') context.stderr.write(`\n  the hub asked to poll less often: every ${event.interval} s now\n`);
  else if (event.kind === 'network') context.stderr.write(`\n  network error (${event.detail ?? 'no answer'}); retrying, ${left}\n`);
  else if (process.stderr.isTTY) context.stderr.write(`\r- Waiting for approval… ${left}   `);
  else if (event.secondsLeft % 60 < event.interval) context.stderr.write(`  waiting for approval (${left})\n`);
}

async function runLogout(options: { home?: string }, context: CliContext): Promise<void> {
  const fromEnvironment = readTokenEnvironment(context.env);
  const store = credentialStore(context, options.home);
  const stored = await store.load().catch(() => null);
  const token = fromEnvironment?.token ?? stored?.token ?? null;
  const hub = fromEnvironment?.hub ?? stored?.login.hub ?? null;
  if (token !== null && hub !== null) {
    await revokeAtHub(fetch, hub, token).then(
      () => context.stderr.write(`revoked the token at ${hub}\n`),
      (error: unknown) => context.stderr.write(`! could not revoke at ${hub} (${error instanceof Error ? error.message : String(error)}): ask the hub admin to run gw tokens revoke\n`),
    );
  }
  const removed = await store.remove();
  if (fromEnvironment) context.stderr.write('GW_TOKEN is set in your environment: unset it too\n');
  if (!removed && token === null) throw new CliExit(1, 'not logged in');
  context.stdout.write('logged out\n');
}

async function runWhoami(options: { home?: string }, context: CliContext): Promise<void> {
  const fromEnvironment = readTokenEnvironment(context.env);
  const store = credentialStore(context, options.home);
  if (fromEnvironment) {
    const hub = fromEnvironment.hub ?? (await store.readRecord().catch(() => null))?.hub ?? null;
    if (hub === null) throw new CliExit(1, 'GW_TOKEN is set but no hub is known: set GW_HUB too');
    // The hub is the only one who knows whose token this is: one exchange, the key discarded.
    const outcome = await exchangeAtHub(fetch, { hub, token: fromEnvironment.token, person: null, team: null, source: 'GW_TOKEN' }, Date.now()).catch((error: unknown) => ({ ok: false as const, rejected: false, reason: String(error) }));
    if (!outcome.ok) throw new CliExit(1, `the hub ${hub} does not accept GW_TOKEN (${outcome.reason})`);
    context.stdout.write(`person  ${outcome.grant.person}\nteam    ${outcome.grant.team}\nhub     ${hub}\ntoken   from GW_TOKEN (environment; overrides any stored login)\n`);
    return;
  }
  const stored = await store.load().catch((error: unknown) => { throw new CliExit(1, error instanceof Error ? error.message : String(error)); });
  if (stored === null) throw new CliExit(1, 'not logged in: run gw login --hub URL');
  const where = stored.login.store === 'file' ? `${stored.where} (plain text, mode 0600)` : stored.where;
  context.stdout.write(`person  ${stored.login.person ?? 'unknown'}\nteam    ${stored.login.team ?? 'unknown'}\nhub     ${stored.login.hub}\ntoken   ${stored.token.slice(0, 8)}… in ${where}\n`);
}
