// The sidecar's hold on its hub: it exchanges the personal token (RFC 8693) for
// the team's live key, person proof and team settings, keeps them in memory only,
// refreshes at 80 % of their lifetime, re-exchanges at once when the hub says the
// key was rotated or refused it, and keeps serving with what it has while the
// hub is unreachable, until the grant expires.
import { GatewayError } from '../errors.js';
import type { HealthComponent } from '../pipeline/gateway-services.js';

export interface SidecarLogin {
  hub: string;
  token: string;
  person: string | null;
  team: string | null;
  /** Where the token came from, for the start banner and whoami. */
  source: string;
}

export interface HubGrant {
  liveKey: string;
  proof: string;
  keyId: string;
  team: string;
  person: string;
  expiresAt: number;
  teamSettings: Record<string, unknown>;
}

export type ExchangeOutcome = { ok: true; grant: HubGrant } | { ok: false; rejected: boolean; reason: string };

export interface HubSessionDeps {
  /** One RFC 8693 exchange at the hub (src/login/hub-client.ts). */
  exchange: (login: SidecarLogin) => Promise<ExchangeOutcome>;
  now: () => number;
  log: (level: 'info' | 'warn', message: string) => void;
}

const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 60_000;

export class HubSession {
  #grant: HubGrant | null = null;
  #inFlight: Promise<HubGrant | null> | null = null;
  #timer: NodeJS.Timeout | undefined;
  #retryMs = RETRY_MIN_MS;
  #reachable = true;
  #rejected = false;
  #lastError: string | null = null;
  #lastExchangeAt: number | null = null;
  #stopped = false;

  constructor(readonly login: SidecarLogin, private readonly deps: HubSessionDeps) {}

  /** The first exchange in the background: a sidecar starts even when its hub is down. */
  start(): void {
    void this.refresh();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  /** A usable grant, exchanging first when there is none; a catalog error the client can read otherwise. */
  async credentials(): Promise<HubGrant> {
    const grant = this.#valid() ?? (await this.refresh());
    if (grant) return grant;
    if (this.#rejected) throw loginRejected();
    throw new GatewayError('GW_ERR_HUB_UNAVAILABLE', { message: `The gw hub ${this.login.hub} could not be reached (${this.#lastError ?? 'no answer'}) and this sidecar holds no valid team key yet; retry shortly.` });
  }

  /** Exchanges now (single flight): after a rotation notice or a refusal by the hub. */
  refresh(): Promise<HubGrant | null> {
    this.#inFlight ??= this.#exchange().finally(() => { this.#inFlight = null; });
    return this.#inFlight;
  }

  markReachable(reachable: boolean, reason?: string): void {
    this.#reachable = reachable;
    if (!reachable) this.#lastError = reason ?? 'unreachable';
  }

  get identity(): { person: string | null; team: string | null } {
    return { person: this.#grant?.person ?? this.login.person, team: this.#grant?.team ?? this.login.team };
  }

  health(): HealthComponent {
    const grant = this.#valid();
    const status = this.#rejected ? 'down' : this.#reachable && grant ? 'ok' : 'degraded';
    return {
      status, url: this.login.hub, person: this.identity.person, team: this.identity.team,
      key_expires_at: grant ? new Date(grant.expiresAt).toISOString() : null,
      last_exchange_at: this.#lastExchangeAt === null ? null : new Date(this.#lastExchangeAt).toISOString(),
      ...(status === 'ok' ? {} : { reason: this.#rejected ? 'the hub no longer accepts this login: run gw login' : `hub unreachable: ${this.#lastError ?? 'no answer yet'}` }),
    };
  }

  #valid(): HubGrant | null {
    return this.#grant && this.#grant.expiresAt > this.deps.now() ? this.#grant : null;
  }

  async #exchange(): Promise<HubGrant | null> {
    const outcome = await this.deps.exchange(this.login).catch((error: unknown): ExchangeOutcome => ({ ok: false, rejected: false, reason: String(error) }));
    if (this.#stopped) return this.#valid();
    if (outcome.ok) {
      const first = this.#grant === null;
      this.#grant = outcome.grant;
      this.#reachable = true;
      this.#rejected = false;
      this.#lastError = null;
      this.#lastExchangeAt = this.deps.now();
      this.#retryMs = RETRY_MIN_MS;
      if (first) this.deps.log('info', `hub ${this.login.hub}: serving as ${outcome.grant.person} (team ${outcome.grant.team})`);
      this.#schedule(Math.max(1_000, (outcome.grant.expiresAt - this.deps.now()) * 0.8));
      return outcome.grant;
    }
    this.#lastError = outcome.reason;
    if (outcome.rejected) {
      this.#rejected = true;
      this.#grant = null;
      this.deps.log('warn', `hub ${this.login.hub} refused this login (${outcome.reason}): run gw login`);
      return null;
    }
    this.#reachable = false;
    this.deps.log('warn', `hub ${this.login.hub} unreachable (${outcome.reason}); retrying in ${Math.round(this.#retryMs / 1000)} s`);
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

export function loginRejected(): GatewayError {
  return new GatewayError('GW_ERR_AUTH_INVALID', { message: 'The gw hub no longer accepts this login (token revoked or expired, or you were removed): run gw login.' });
}
