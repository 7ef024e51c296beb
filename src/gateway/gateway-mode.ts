// What differs between the two modes of `gw serve` (DESIGN.md, "Modes"):
// standalone/hub serves the device-login routes and resolves atu- tokens itself,
// and rotates team live keys; a sidecar holds a hub session, routes through the
// hub with the `gateway` provider, ignores environment providers, answers only
// loopback, same-origin callers, and serves credential-less calls as its person.
import { randomBytes } from 'node:crypto';
import { readSecretReference } from '../config/login-env.js';
import { createHubContext, type HubContext, type HubLimits } from '../hub/hub-context.js';
import type { TrailReader } from '../admin/trail-reader.js';
import type { AuditPage } from '../admin/audit-page.js';
import type { AdminContext } from '../admin/admin-api.js';
import type { AdminCommands } from '../admin/admin-api.js';
import { oidcConfig } from '../hub/verification-page.js';
import { createHubIdentity } from '../hub/hub-identity.js';
import { loadOrCreateHubSecret } from '../hub/hub-secret.js';
import { CredentialStore } from '../login/credential-store.js';
import { HubWitness } from '../hub/witness-checkpoints.js';
import { exchangeAtHub } from '../login/hub-client.js';
import { systemKeychain } from '../login/keychain.js';
import { createStoredLoginReader } from '../login/stored-login-reader.js';
import type { HealthComponent } from '../metrics/health-component.js';
import type { AuditAppender } from '../pipeline/gateway-services.js';
import type { ProviderConfig } from '../providers/provider-adapter.js';
import { createHubUpstream } from '../sidecar/hub-upstream.js';
import { HubSession, type SidecarLogin } from '../sidecar/hub-session.js';
import { createSidecarIdentity } from '../sidecar/sidecar-identity.js';
import { DEFAULT_OVERLAP_MS, rotateLiveKey, teamsDueForRotation } from '../state/live-keys.js';
import type { StateStore } from '../state/state-store.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { Logger } from '../logger.js';
import type { ServerOptions } from '../server/build-server.js';
import type { ProviderSourceOptions } from './provider-source.js';

export interface GatewayMode {
  kind: 'standalone' | 'sidecar';
  sidecar: SidecarLogin | null;
  providerOptions: ProviderSourceOptions;
  serverOptions: Pick<ServerOptions, 'hub' | 'people' | 'loopbackOnly' | 'admin'>;
  wrapUpstream(upstream: UpstreamClient): UpstreamClient;
  health(): Record<string, HealthComponent>;
  /** Once listening: the sidecar's first exchange, the hub's rotation timer. */
  start(): void;
  stop(): void;
  /** Sidecar: the models its hub said it serves (after the first exchange). */
  servedModels?(): string[];
  /** Hub: what it tells sidecars it serves, from the providers in force. */
  setCatalog?(models: () => string[]): void;
}

export interface ModeInput {
  home: string;
  env: Record<string, string | undefined>;
  sidecar?: SidecarLogin;
  state: StateStore;
  audit: AuditAppender;
  logger: Logger;
  /** Device-login limits shared by every instance (gw serve --redis). */
  hubLimits?: HubLimits;
  /** The request records the admin console searches (the trail file, or PostgreSQL). */
  trail: TrailReader;
  /** The console's Audit page over this gw's trail (the mode adds the trails it witnesses). */
  auditPage: Omit<AuditPage, 'witnessed'>;
  /** A hub: admins' remote governance commands (gw policy set … --hub). */
  adminCommands?: AdminCommands;
  /** gw audit rotate over the admin API (POST /admin/api/audit/rotate). */
  rotateAudit?: AdminContext['rotateAudit'];
  /** The budget counter calls are admitted with, for the console's budget status (a hub's). */
  spendCounter?: AdminContext['spendCounter'];
}

export async function prepareMode(input: ModeInput): Promise<GatewayMode> {
  return input.sidecar ? prepareSidecar(input.sidecar, input) : prepareHub(input);
}

function prepareSidecar(login: SidecarLogin, input: ModeInput): GatewayMode {
  const { home, logger } = input;
  // GW_TOKEN cannot change under a running process; a stored login is followed (gw login / gw logout).
  const followed = login.source !== 'GW_TOKEN';
  const session = new HubSession(login, {
    exchange: (current) => exchangeAtHub(fetch, current, Date.now()),
    ...(followed ? { readLogin: createStoredLoginReader(new CredentialStore(home, systemKeychain())) } : {}),
    now: Date.now,
    log: (level, message) => logger[level]({ hub: login.hub }, message),
  });
  const hubProvider: ProviderConfig = { name: 'hub', kind: 'gateway', baseUrl: login.hub, apiKey: null, source: 'built-in', baseUrlFrom: 'gw login' };
  return {
    kind: 'sidecar',
    sidecar: login,
    providerOptions: { ignoreEnvironmentProviders: true, extraProviders: [hubProvider] },
    serverOptions: {
      people: createSidecarIdentity(session), loopbackOnly: true,
      // The person's own trail, read-only, at /ui (behind the same local guard as the data plane).
      admin: {
        store: input.state, hubSecret: randomBytes(32), trail: input.trail, auditPage: { ...input.auditPage, witnessed: async () => [] },
        audit: () => undefined, personal: { person: () => session.identity.person },
      },
    },
    wrapUpstream: (upstream) => createHubUpstream(upstream, session),
    health: () => ({ hub: session.health() }),
    start: () => session.start(),
    stop: () => session.stop(),
    servedModels: () => session.servedModels,
  };
}

async function prepareHub(input: ModeInput): Promise<GatewayMode> {
  const secret = await loadOrCreateHubSecret(input.state);
  const audit = input.audit;
  const witness = new HubWitness(input.home, () => new Date());
  const hub: HubContext = createHubContext({
    store: input.state, secret, now: () => new Date(), fetch,
    audit: (fields) => void audit.append(fields).catch((error: unknown) => input.logger.error({ err: String(error) }, 'audit append failed')),
    oidcClientSecret: () => readSecretReference(input.state.snapshot().settings.oidc_client_secret, input.env),
    witness,
  }, input.hubLimits);
  let ticker: NodeJS.Timeout | undefined;
  return {
    kind: 'standalone',
    sidecar: null,
    providerOptions: {},
    serverOptions: {
      hub, people: createHubIdentity(hub),
      admin: { store: input.state, hubSecret: secret, trail: input.trail, auditPage: { ...input.auditPage, witnessed: () => witness.overview() }, audit: hub.audit,
        ...(input.rotateAudit ? { rotateAudit: input.rotateAudit } : {}),
        ...(input.spendCounter ? { spendCounter: input.spendCounter } : {}),
        ...(input.adminCommands ? { commands: input.adminCommands } : {}),
        oidc: { config: (baseUrl) => oidcConfig(hub, baseUrl), fetch } },
    },
    wrapUpstream: (upstream) => upstream,
    health: () => ({}),
    start: () => {
      ticker = setInterval(() => void rotateDueKeys(hub, input.logger), 60_000);
      ticker.unref();
    },
    stop: () => clearInterval(ticker),
    setCatalog: (models) => { hub.models = models; },
  };
}

/** DESIGN.md: hubs rotate live keys (setting live_key_rotation_seconds, default daily), with overlap. */
async function rotateDueKeys(hub: HubContext, logger: Logger): Promise<void> {
  for (const team of teamsDueForRotation(hub.store.snapshot(), hub.now())) {
    try {
      const live = await rotateLiveKey(hub.store, team, hub.secret, DEFAULT_OVERLAP_MS);
      hub.audit({ kind: 'login.key_rotated', team, key_id: live.key_id });
    } catch (error) {
      logger.error({ team, err: String(error) }, 'live key rotation failed');
    }
  }
}
