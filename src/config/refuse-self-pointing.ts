// A provider URL that points back at this gw would loop every request through
// itself. It happens easily: people export ANTHROPIC_BASE_URL=http://localhost:8080
// for their coding tool in the same shell that starts gw. Such providers are
// dropped at start with a message that says which variable to unset.
import os from 'node:os';
import type { ProviderConfig } from '../providers/provider-adapter.js';

export interface ListenAddress {
  host: string;
  port: number;
}

export interface MachineNames {
  hostname: string;
  /** This machine's interface addresses; they reach gw when it listens on every interface. */
  addresses: string[];
}

export function refuseSelfPointing(
  providers: ProviderConfig[], listen: ListenAddress, machine: MachineNames = readMachineNames(),
): { providers: ProviderConfig[]; warnings: string[] } {
  const selfHosts = collectSelfHosts(listen, machine);
  const kept: ProviderConfig[] = [];
  const warnings: string[] = [];
  for (const provider of providers) {
    if (pointsAt(provider.baseUrl, selfHosts, listen.port)) warnings.push(describeRefusal(provider, listen));
    else kept.push(provider);
  }
  return { providers: kept, warnings };
}

function readMachineNames(): MachineNames {
  const addresses = Object.values(os.networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
  return { hostname: os.hostname(), addresses };
}

const WILDCARDS = new Set(['0.0.0.0', '::']);

function collectSelfHosts(listen: ListenAddress, machine: MachineNames): Set<string> {
  const hosts = new Set(['localhost', '0.0.0.0', '::', '::1', normalizeHost(listen.host)]);
  const hostname = machine.hostname.toLowerCase();
  if (hostname !== '') hosts.add(hostname).add(`${hostname}.local`);
  if (WILDCARDS.has(normalizeHost(listen.host))) for (const address of machine.addresses) hosts.add(normalizeHost(address));
  return hosts;
}

function pointsAt(baseUrl: string, selfHosts: Set<string>, port: number): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const urlPort = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (urlPort !== port) return false;
  const host = normalizeHost(url.hostname);
  return selfHosts.has(host) || isLoopback(host);
}

/** `[::1]` → `::1`, `::ffff:127.0.0.1` → `127.0.0.1`, `Example.local.` → `example.local`. */
function normalizeHost(host: string): string {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return bare.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}

// 127.0.0.0/8 is all loopback (RFC 1122 §3.2.1.3); *.localhost resolves to it (RFC 6761 §6.3).
function isLoopback(host: string): boolean {
  return /^127\.\d+\.\d+\.\d+$/.test(host) || host.endsWith('.localhost');
}

function describeRefusal(provider: ProviderConfig, listen: ListenAddress): string {
  const url = displayUrl(provider.baseUrl);
  const from = provider.baseUrlFrom;
  const advice = `or run gw on another port than ${listen.port}`;
  if (provider.source === 'state') {
    return `provider ${provider.name}: base URL ${url} in state.json points at this gw itself; skipped (gw providers remove ${provider.name}, ${advice})`;
  }
  if (from === undefined || from === 'default') {
    return `provider ${provider.name}: its default base URL ${url} points at this gw itself; skipped (set its base URL variable, ${advice})`;
  }
  return `provider ${provider.name}: ${from}=${url} points at this gw itself; skipped (unset it in the shell that runs gw serve, ${advice})`;
}

/** The URL without any user:password part. */
function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return baseUrl;
  }
}
