// The hub session's decisions with an injected exchange and login reader: what a
// logout, a new login, a refusal, a login to another hub, and an exchange that
// finishes after the login changed each lead to. No network, no timers started.
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.js';
import { HubSession, type ExchangeOutcome, type LoginReading, type SidecarLogin } from '../../src/sidecar/hub-session.js';

const HUB = 'https://hub.example';
const login = (token: string, hub = HUB): SidecarLogin => ({ hub, token, person: 'alice@example.com', team: 'eng', source: '/home/alice/.gw/login.json' });

function rig(first: SidecarLogin = login('atu-one')) {
  let reading: LoginReading = { kind: 'login', login: first };
  const refused = new Set<string>();
  const exchanged: string[] = [];
  const logs: string[] = [];
  let hold: Promise<void> | null = null;
  const session = new HubSession(first, {
    exchange: async (current): Promise<ExchangeOutcome> => {
      exchanged.push(current.token);
      await hold;
      if (refused.has(current.token)) return { ok: false, rejected: true, reason: 'invalid_grant: The personal token is not valid' };
      return { ok: true, grant: { credential: `gws-for-${current.token}`, team: 'eng', person: 'alice@example.com', expiresAt: Date.now() + 3_600_000, teamSettings: {} } };
    },
    readLogin: async () => reading,
    now: Date.now,
    log: (_level, message) => logs.push(message),
  });
  return {
    session, exchanged, logs, refused,
    set: (next: LoginReading) => { reading = next; },
    holdExchanges: () => { let release = () => {}; hold = new Promise((resolve) => { release = resolve; }); return () => { hold = null; release(); }; },
  };
}

async function refusal(session: HubSession): Promise<GatewayError> {
  const error = await session.credentials().then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('the hub session follows the login', () => {
  it('after gw logout answers GW_ERR_AUTH_LOGGED_OUT and shows down; a new gw login is exchanged and served', async () => {
    const { session, exchanged, logs, set } = rig();
    expect((await session.credentials()).credential).toBe('gws-for-atu-one');
    set({ kind: 'none' });
    await session.checkLogin();
    const error = await refusal(session);
    expect([error.code, error.status]).toEqual(['GW_ERR_AUTH_LOGGED_OUT', 401]);
    expect(error.message).toContain('run gw login');
    expect(session.health()).toMatchObject({ status: 'down', reason: expect.stringContaining('logged out') });
    await session.checkLogin();
    expect(logs.filter((line) => line.startsWith('gw logout'))).toHaveLength(1);
    set({ kind: 'login', login: login('atu-two') });
    await session.checkLogin();
    expect((await session.credentials()).credential).toBe('gws-for-atu-two');
    expect(session.login.token).toBe('atu-two');
    expect(exchanged).toEqual(['atu-one', 'atu-two']);
    expect(logs.some((line) => line.startsWith('new gw login picked up (alice@example.com)'))).toBe(true);
    expect(logs.join('\n')).not.toContain('atu-');
  });

  it('a refused token says run gw login; a new login already stored is picked up at the refusal, not a tick later', async () => {
    const { session, refused, set, exchanged } = rig();
    refused.add('atu-one');
    const error = await refusal(session);
    expect([error.code, error.message]).toEqual(['GW_ERR_AUTH_INVALID', expect.stringContaining('run gw login; this sidecar picks the new login up within seconds')]);
    set({ kind: 'login', login: login('atu-two') });
    // The refusal triggers a re-read by itself.
    expect(await session.refresh()).toBeNull();
    await session.checkLogin();
    expect((await session.credentials()).credential).toBe('gws-for-atu-two');
    expect(exchanged.at(-1)).toBe('atu-two');
  });

  it('an unchanged login after a refusal stays refused; a login to another hub asks for a restart', async () => {
    const { session, refused, set } = rig();
    refused.add('atu-one');
    await refusal(session);
    await session.checkLogin();
    expect((await refusal(session)).code).toBe('GW_ERR_AUTH_INVALID');
    set({ kind: 'login', login: login('atu-three', 'https://other-hub.example') });
    await session.checkLogin();
    const error = await refusal(session);
    expect([error.code, error.message]).toEqual(['GW_ERR_AUTH_LOGGED_OUT', expect.stringContaining('restart gw serve')]);
  });

  it('discards an exchange that finishes after the login changed', async () => {
    const { session, set, holdExchanges } = rig();
    const release = holdExchanges();
    const pending = session.refresh();
    set({ kind: 'none' });
    await session.checkLogin();
    release();
    expect(await pending).toBeNull();
    expect((await refusal(session)).code).toBe('GW_ERR_AUTH_LOGGED_OUT');
  });

  it('an unreadable login keeps the current one and is logged once', async () => {
    const { session, set, logs } = rig();
    await session.credentials();
    set({ kind: 'unreadable', reason: '/home/alice/.gw/login.json can be read by other users (mode 644): run chmod 600 /home/alice/.gw/login.json' });
    await session.checkLogin();
    await session.checkLogin();
    expect((await session.credentials()).credential).toBe('gws-for-atu-one');
    expect(logs.filter((line) => line.startsWith('cannot read the gw login'))).toHaveLength(1);
  });
});
