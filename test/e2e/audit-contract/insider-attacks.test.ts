// Issue 27's opening bullets, the insider's attacks, as one contract: each row is an attack on
// a trail a real `gw serve` wrote (witnessed by a file witness on another folder), run against
// every store it applies to (the home's file trail, a real PostgreSQL), and what must catch it:
// `gw audit verify` (with --key, --witness, --store) failing, or the next `gw serve` refusing.
// One row says what cannot be caught: a file trail cut back to an old checkpoint verifies on its
// own (docs/audit.md says so); only the witness catches it.
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { fileBackend, postgresBackend, type RotateBackend } from '../audit-rotate/rotate-backends.js';
import { rechainUnderNewKey } from '../audit-witness/rechain.js';
import { CHAT_BODY, GatewayJar, auditFile } from '../helpers.js';
import { chainOfPid, deleteChain, rewriteAndResign } from './postgres-insider.js';

type StoreName = 'file store' | 'PostgreSQL';

/** A trail gw wrote with a witness, gw stopped: what an attack works on. */
interface Trail {
  backend: RotateBackend;
  home: string;
  witness: string;
  /** A copy of the key the trail was signed with, kept away from the home (an auditor's). */
  keyFile: string;
  pid: number;
  store: string;
  verify(...args: string[]): Promise<{ code: number; text: string }>;
  /** Starts gw on the home, makes `calls` calls, stops it; 'refused' with the message when the start is refused. */
  serve(calls: number, args?: string[]): Promise<{ code: number | 'refused'; text: string }>;
}

/** What must happen after the attack: `code` 'refused' is a start that did not come up. */
interface Expected {
  what: string;
  outcome: { code: number | 'refused'; text: string };
  code: number | 'refused';
  says: RegExp;
}

interface Row {
  bullet: string;
  attack: Partial<Record<StoreName, (trail: Trail) => Promise<Expected[]>>>;
}

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });

async function callsOn(trail: Pick<Trail, 'backend'>, gateway: GatewayProcess, calls: number): Promise<void> {
  for (let index = 0; index < calls; index += 1) {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${trail.backend.callKey(gateway)}`, 'content-type': 'application/json' }, body: CHAT_BODY,
    });
    expect(response.status).toBe(200);
    await response.text();
  }
}

async function writtenTrail(backend: RotateBackend): Promise<Trail> {
  await backend.reset();
  const home = await makeHome();
  const witness = path.join(await makeHome('gw-witness-volume-'), 'witness.jsonl');
  expect((await runGw(['settings', 'set', 'audit_witness', witness, ...backend.cliArgs()], { home })).code).toBe(0);
  const serve = async (calls: number, args: string[] = []): Promise<{ code: number | 'refused'; text: string }> => {
    let gateway: GatewayProcess;
    try {
      gateway = await jar.start({ home, args: [...backend.cliArgs(), '--standalone', ...args], env: { GW_LOG_LEVEL: 'warn' } });
    } catch (error) {
      return { code: 'refused', text: String(error) };
    }
    await callsOn({ backend }, gateway, calls);
    return { code: await gateway.stop() as number, text: gateway.stdout() + gateway.stderr() };
  };
  const first = await backend.start(jar, home);
  await callsOn({ backend }, first, 3);
  expect(await first.stop()).toBe(0);
  const keyFile = path.join(await makeHome('gw-auditor-'), 'audit.pub');
  await copyFile(path.join(home, 'audit.pub'), keyFile);
  const verify = async (...args: string[]) => {
    const result = await backend.verify(home, ...args);
    return { code: result.code, text: result.stdout + result.stderr };
  };
  return { backend, home, witness, keyFile, pid: first.child.pid!, store: backend.cliArgs()[1] ?? '', verify, serve };
}

/** Cuts the file trail's log back to its first `keep` records. */
async function cutLog(home: string, keep: number): Promise<void> {
  const lines = (await readFile(auditFile(home), 'utf8')).split('\n').filter(Boolean);
  await writeFile(auditFile(home), `${lines.slice(0, keep).join('\n')}\n`);
}

const checkpointFile = (home: string) => path.join(home, 'audit', 'checkpoint.json');

const rows: Row[] = [
  {
    bullet: 'a chain edited, re-hashed and re-signed under a fresh key fails verify, even with the old key given (fail closed)',
    attack: {
      'file store': async (trail) => {
        await rechainUnderNewKey(trail.home, 2, { rewriteTrust: false });
        return [{ what: 'verify --key OLD', outcome: await trail.verify('--key', trail.keyFile), code: 1, says: /BROKEN.*which is not trusted/ }];
      },
      PostgreSQL: async (trail) => {
        await rewriteAndResign(trail.store, await chainOfPid(trail.store, trail.pid));
        return [{ what: 'verify --store --key OLD', outcome: await trail.verify('--key', trail.keyFile), code: 1, says: /BROKEN.*not trusted/ }];
      },
    },
  },
  {
    bullet: 'a whole chain deleted (records and chains row) fails: the --key that signed it signs no chain',
    attack: {
      PostgreSQL: async (trail) => {
        await deleteChain(trail.store, await chainOfPid(trail.store, trail.pid));
        return [{ what: 'verify --store --key OLD', outcome: await trail.verify('--key', trail.keyFile), code: 1, says: /MISSING: --key / }];
      },
    },
  },
  {
    bullet: '--store --witness checks the store\'s chains: a chain the witness cosigned and the store lost fails, with no --key at all',
    attack: {
      PostgreSQL: async (trail) => {
        await deleteChain(trail.store, await chainOfPid(trail.store, trail.pid));
        return [{
          what: 'verify --store --allow-untrusted --witness W', outcome: await trail.verify('--allow-untrusted', '--witness', trail.witness),
          code: 1, says: /MISMATCH: deleted: the witness cosigned trail .* no chain in the store carries it/,
        }];
      },
    },
  },
  {
    // PostgreSQL: the instance starts under its new key (the start's witness check reads file trails only); verify --witness catches it.
    bullet: 'a reinstall (keys deleted, no gw audit rotate): a file trail\'s start is refused; once it serves again, verify --witness fails',
    attack: {
      'file store': async (trail) => {
        for (const name of ['audit', 'audit.pub', 'audit-signing.key']) await rm(path.join(trail.home, name), { recursive: true, force: true });
        const refused = await trail.serve(1);
        const accepted = await trail.serve(1, ['--accept-audit-gap']);
        return [
          { what: 'gw serve', outcome: refused, code: 'refused', says: /is not in .*audit-trust\.json/ },
          { what: 'gw serve --accept-audit-gap', outcome: accepted, code: 0, says: /.*/ },
          { what: 'verify --witness W', outcome: await trail.verify('--witness', trail.witness), code: 1, says: /MISMATCH: replaced without closing/ },
        ];
      },
      PostgreSQL: async (trail) => {
        for (const name of ['audit.pub', 'audit-signing.key', 'audit-trust.json']) await rm(path.join(trail.home, name), { force: true });
        const served = await trail.serve(1);
        return [
          { what: 'gw serve under a new key', outcome: served, code: 0, says: /.*/ },
          {
            what: 'verify --store --witness W', outcome: await trail.verify('--key', trail.keyFile, '--key', path.join(trail.home, 'audit.pub'), '--witness', trail.witness),
            code: 1, says: /MISMATCH: replaced without closing/,
          },
        ];
      },
    },
  },
  {
    bullet: 'a file trail cut back with an old checkpoint.json put back: uncatchable without a witness (verify exits 0), caught with one, and the start refuses',
    attack: {
      'file store': async (trail) => {
        const old = await readFile(checkpointFile(trail.home), 'utf8');
        const oldSeq = (JSON.parse(old) as { seq: number }).seq;
        expect((await trail.serve(3)).code).toBe(0);
        await cutLog(trail.home, oldSeq);
        await writeFile(checkpointFile(trail.home), old);
        return [
          { what: 'verify (no witness): the documented limit', outcome: await trail.verify(), code: 0, says: /intact/ },
          { what: 'verify --witness W', outcome: await trail.verify('--witness', trail.witness), code: 1, says: /MISMATCH: .*truncated or rolled back/ },
          { what: 'gw serve', outcome: await trail.serve(0), code: 'refused', says: /GW_ERR_AUDIT_WITNESS_ROLLBACK/ },
        ];
      },
    },
  },
  {
    bullet: 'the last records cut and checkpoint.json deleted: the start refuses, as verify does',
    attack: {
      'file store': async (trail) => {
        const lines = (await readFile(auditFile(trail.home), 'utf8')).split('\n').filter(Boolean);
        await cutLog(trail.home, lines.length - 2);
        await rm(checkpointFile(trail.home));
        return [
          { what: 'gw serve', outcome: await trail.serve(0), code: 'refused', says: /checkpoint\.json is missing while the log holds/ },
          { what: 'verify', outcome: await trail.verify(), code: 1, says: /checkpoint\.json is missing/ },
        ];
      },
    },
  },
];

describe.each([fileBackend(), postgresBackend()])('insider attacks on the $name', (backend) => {
  beforeAll(async () => backend.setUp(), 120_000);
  afterAll(async () => { await jar.stopAll(); await backend.tearDown(); });
  const applying = rows.flatMap((row) => {
    const attack = row.attack[backend.name as StoreName];
    return attack ? [{ bullet: row.bullet, attack }] : [];
  });

  // One body for every row and store (it.each would cut the bullet's words in the test's name).
  for (const { bullet, attack } of applying) {
    it(bullet, async () => {
      const trail = await writtenTrail(backend);
      // Before the attack the trail verifies, against its witness too: every finding below is the attack's doing.
      const before = await trail.verify('--key', trail.keyFile, '--witness', trail.witness);
      expect(before.code, before.text).toBe(0);
      for (const expected of await attack(trail)) {
        expect(expected.outcome.code, `${expected.what}: ${expected.outcome.text}`).toBe(expected.code);
        expect(expected.outcome.text, expected.what).toMatch(expected.says);
      }
    }, 180_000);
  }
});
