// The sidecar's hold on its hub: it exchanges the personal token (RFC 8693) for a
// gws- session credential bound to its person, plus the team settings; keeps them
// in memory only; refreshes at 80 % of their lifetime (at most an hour); and keeps
// serving with what it has while the hub is unreachable, until the credential
// expires. It follows the login (README, "The sidecar follows the login"): every
// ~2 s, and at once when the hub refuses it, it re-reads where `gw login` keeps the
// token, and a new login, a logout or a revocation takes effect without a restart.
import { GatewayError } from '../errors.js';
import type { HealthComponent } from '../metrics/health-component.js';

export interface SidecarLogin {
  hub: string;
  token: string;
  person: string | null;
  team: string | null;
  /** Where the token came from, for the start banner and whoami. */
  source: string;
}

export interface HubGrant {
  /** The gws- session credential, sent to the hub in x-gw-vk. */
  credential: string;
  team: string;
  person: string;
  expiresAt: number;
  teamSettings: Record<string, unknown>;
}

export type ExchangeOutcome = { ok: true; grant: HubGrant } | { ok: false; rejected: boolean; reason: string };

/** What the place `gw login` writes holds now (src/login/stored-login-reader.ts). */
export type LoginReading = { kind: 'login'; login: SidecarLogin } | { kind: 'none' } | { kind: 'unreadable'; reason: string };

export interface HubSessionDeps {
  /** One RFC 8693 exchange at the hub (src/login/hub-client.ts). */
  exchange: (login: SidecarLogin) => Promise<ExchangeOutcome>;
  /** Re-reads the stored login; absent when the token came from GW_TOKEN, which cannot change under a process. */
  readLogin?: () => Promise<LoginReading>;
  followIntervalMs?: number;
  now: () => number;
  log: (level: 'info' | 'warn', message: string) => void;
}

const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 60_000;
const FOLLOW_INTERVAL_MS = 2_000;

/** Why the session cannot serve through the hub apart from the network: the login is gone or no longer accepted. */
type Standing = 'ok' | 'rejected' | 'logged-out' | 'other-hub';

export class HubSession {
  #login: SidecarLogin;
  readonly #hub: string;
  #grant: HubGrant | null = null;
  #inFlight: Promise<HubGrant | null> | null = null;
  #checking: Promise<void> | null = null;
  #timer: NodeJS.Timeout | undefined;
  #watch: NodeJS.Timeout | undefined;
  #retryMs = RETRY_MIN_MS;
  #reachable = true;
  #standing: Standing = 'ok';
  #lastError: string | null = null;
  #lastUnreadable: string | null = null;
  #lastExchangeAt: number | null = null;
  #stopped = false;

  constructor(login: SidecarLogin, private readonly deps: HubSessionDeps) {
    this.#login = login;
    // The hub provider and the upstream wrapper are built for this URL once; a login to another hub needs a restart.
    this.#hub = login.hub;
  }

  get login(): SidecarLogin {
    return this.#login;
  }

  /** The first exchange in the background (a sidecar starts even when its hub is down), and the login watch. */
  start(): void {
    void this.refresh();
    if (!this.deps.readLogin) return;
    this.#watch = setInterval(() => void this.checkLogin(), this.deps.followIntervalMs ?? FOLLOW_INTERVAL_MS);
    this.#watch.unref();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    clearInterval(this.#watch);
  }

  /** A usable grant, exchanging first when there is none; a catalog error the client can read otherwise. */
  async credentials(): Promise<HubGrant> {
    // A refused login is tried again on demand: the hub accepts it again if the person is added back.
    const grant = this.#valid() ?? (this.#standing === 'ok' || this.#standing === 'rejected' ? await this.refresh() : null);
    if (grant) return grant;
    if (this.#standing !== 'ok') throw this.#refusal();
    throw new GatewayError('GW_ERR_HUB_UNAVAILABLE', { message: `The gw hub ${this.#hub} could not be reached (${this.#lastError ?? 'no answer'}) and this sidecar holds no valid hub credential yet; retry shortly.` });
  }

  /** Exchanges now (single flight): after a refusal by the hub, or a new login. */
  refresh(): Promise<HubGrant | null> {
    this.#inFlight ??= this.#exchange().finally(() => { this.#inFlight = null; });
    return this.#inFlight;
  }

  /** Re-reads the stored login (single flight) and follows it; a no-op for GW_TOKEN. */
  checkLogin(): Promise<void> {
    if (!this.deps.readLogin || this.#stopped) return Promise.resolve();
    this.#checking ??= this.deps.readLogin()
      .catch((error: unknown): LoginReading => ({ kind: 'unreadable', reason: String(error) }))
      .then((reading) => this.#apply(reading))
      .finally(() => { this.#checking = null; });
    return this.#checking;
  }

  markReachable(reachable: boolean, reason?: string): void {
    this.#reachable = reachable;
    if (!reachable) this.#lastError = reason ?? 'unreachable';
  }

  /** What the hub said it serves (team_settings.models at the last exchange); [] before one. */
  get servedModels(): string[] {
    const models = this.#grant?.teamSettings.models;
    return Array.isArray(models) ? models.filter((model): model is string => typeof model === 'string') : [];
  }

  get identity(): { person: string | null; team: string | null } {
    return { person: this.#grant?.person ?? this.#login.person, team: this.#grant?.team ?? this.#login.team };
  }

  health(): HealthComponent {
    const grant = this.#valid();
    const status = this.#standing !== 'ok' ? 'down' : this.#reachable && grant ? 'ok' : 'degraded';
    return {
      status, url: this.#hub, person: this.identity.person, team: this.identity.team,
      // What the hub serves, so gw run can ask for a model it routes (a tool's own default may route nowhere).
      models: this.servedModels,
      key_expires_at: grant ? new Date(grant.expiresAt).toISOString() : null,
      last_exchange_at: this.#lastExchangeAt === null ? null : new Date(this.#lastExchangeAt).toISOString(),
      ...(status === 'ok' ? {} : { reason: status === 'down' ? this.#refusal().message : `hub unreachable: ${this.#lastError ?? 'no answer yet'}` }),
    };
  }

  #valid(): HubGrant | null {
    return this.#standing === 'ok' && this.#grant && this.#grant.expiresAt > this.deps.now() ? this.#grant : null;
  }

  #refusal(): GatewayError {
    if (this.#standing === 'logged-out') return loggedOut();
    if (this.#standing === 'other-hub') {
      return new GatewayError('GW_ERR_AUTH_LOGGED_OUT', { message: `gw login now points to another hub than the ${this.#hub} this sidecar was started for: restart gw serve to follow it.` });
    }
    return loginRejected(this.#login.source === 'GW_TOKEN');
  }

  #apply(reading: LoginReading): void {
    if (this.#stopped) return;
    if (reading.kind === 'unreadable') {
      if (reading.reason !== this.#lastUnreadable) this.deps.log('warn', `cannot read the gw login (${reading.reason}); keeping the current one`);
      this.#lastUnreadable = reading.reason;
      return;
    }
    this.#lastUnreadable = null;
    if (reading.kind === 'none') {
      if (this.#standing === 'logged-out') return;
      this.#setStanding('logged-out');
      this.deps.log('warn', `gw logout: no longer serving through the hub ${this.#hub}; run gw login (no restart needed)`);
      return;
    }
    const next = reading.login;
    if (next.hub !== this.#hub) {
      if (this.#standing !== 'other-hub') this.deps.log('warn', `gw login now points to the hub ${next.hub}, not ${this.#hub}: restart gw serve to follow it`);
      this.#setStanding('other-hub');
      return;
    }
    // The same token: nothing changed (a refused token stays refused until a new login or the hub accepts it again).
    if (next.token === this.#login.token && (this.#standing === 'ok' || this.#standing === 'rejected')) return;
    this.#login = next;
    this.#setStanding('ok');
    this.deps.log('info', `new gw login picked up${next.person ? ` (${next.person})` : ''}: exchanging it at the hub ${this.#hub}`);
    void this.refresh();
  }

  #setStanding(standing: Standing): void {
    this.#standing = standing;
    if (standing === 'ok') return;
    this.#grant = null;
    clearTimeout(this.#timer);
  }

  async #exchange(): Promise<HubGrant | null> {
    const login = this.#login;
    const outcome = await this.deps.exchange(login).catch((error: unknown): ExchangeOutcome => ({ ok: false, rejected: false, reason: String(error) }));
    // A logout or a new login while the exchange ran: its answer is for a login no longer in force.
    if (this.#stopped || login !== this.#login || this.#standing === 'logged-out' || this.#standing === 'other-hub') return this.#valid();
    if (outcome.ok) {
      const first = this.#grant === null;
      this.#grant = outcome.grant;
      this.#reachable = true;
      this.#standing = 'ok';
      this.#lastError = null;
      this.#lastExchangeAt = this.deps.now();
      this.#retryMs = RETRY_MIN_MS;
      if (first) this.deps.log('info', `hub ${this.#hub}: serving as ${outcome.grant.person} (team ${outcome.grant.team})`);
      this.#schedule(Math.max(1_000, (outcome.grant.expiresAt - this.deps.now()) * 0.8));
      return outcome.grant;
    }
    this.#lastError = outcome.reason;
    if (outcome.rejected) {
      const already = this.#standing === 'rejected';
      this.#setStanding('rejected');
      if (!already) this.deps.log('warn', `hub ${this.#hub} refused this login (${outcome.reason}): ${this.#login.source === 'GW_TOKEN' ? 'set a new GW_TOKEN and restart gw serve' : 'run gw login (no restart needed)'}`);
      // Maybe a new gw login is already stored: look now rather than at the next tick.
      void this.checkLogin();
      return null;
    }
    this.#reachable = false;
    this.deps.log('warn', `hub ${this.#hub} unreachable (${outcome.reason}); retrying in ${Math.round(this.#retryMs / 1000)} s`);
    this.#schedule(this.#retryMs);
    this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
    return this.#valid();
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.refresh(), delayMs);
    this.#timer.unref();
  }
}

function loginRejected(fromEnvironment = false): GatewayError {
  const next = fromEnvironment ? 'set a new GW_TOKEN and restart gw serve' : 'run gw login; this sidecar picks the new login up within seconds, no restart needed';
  return new GatewayError('GW_ERR_AUTH_INVALID', { message: `The gw hub no longer accepts this login (token revoked or expired, or you were removed): ${next}.` });
}

function loggedOut(): GatewayError {
  return new GatewayError('GW_ERR_AUTH_LOGGED_OUT');
}
