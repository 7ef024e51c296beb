// gw audit rotate: closes the trail's current chain (an `audit.chain_closed` record naming the
// next key, sealed by a closed checkpoint under the old key) and opens the next under a new key
// (docs/audit-rotate.md). A running gw does it itself, over its admin API (--hub URL: admin
// credential checked, the act recorded); with no gw running it is done here, under the audit lock.
import path from 'node:path';
import type { Command } from 'commander';
import { AuditLockedError, AuditRotationError, openAuditTrail, type AuditTrail, type RotationSummary } from '../../audit/audit-trail.js';
import { callHub, remoteHub } from '../admin-client.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { openState, resolveStoreUrl } from '../../postgres/open-state.js';
import { isSignedCheckpoint, type SignedCheckpoint } from '../../audit/checkpoint.js';
import { ensureInstanceId } from '../../audit/instance-id.js';
import { findSidecarLogin } from '../sidecar-login.js';
import { readWitness } from '../read-witness.js';
import type { WitnessReader } from '../../gateway/witness-at-start.js';
import { errorMessage } from '../../error-message.js';

interface RotateFlags {
  home?: string;
  hub?: string;
  store?: string;
  json?: boolean;
  acceptAuditGap?: boolean;
}

/** What a rotation with no gw running tells the witness: the closed chain's last checkpoint, then the new chain's newest. */
interface Rotated {
  summary: RotationSummary;
  checkpoints: SignedCheckpoint[];
}

/** The witnesses to hold the chain against: the audit_witness setting's, and the hub of a home logged in as a sidecar. */
async function witnessReaders(home: string, setting: string | null, context: CliContext): Promise<WitnessReader[]> {
  const readers: WitnessReader[] = [];
  // A home whose login cannot be read is rotated without its hub: the next sidecar start compares the closed chain with it.
  const login = await findSidecarLogin(home, context.env).catch(() => null);
  if (login !== null) readers.push({ name: `hub ${login.hub.replace(/\/+$/, '')}`, read: () => readWitness(login.hub, home, context.env) });
  if (setting === null) return readers;
  // The witness readers (and the HTTP client under them) are the gateway's; loaded only when a witness is set.
  const [{ readersOf }, { createUpstreamClient }] = await Promise.all([import('../../gateway/witness-at-start.js'), import('../../upstream/upstream-client.js')]);
  const upstream = createUpstreamClient();
  return [...readers, ...readersOf({ setting, hub: null, upstream }).map((reader) => ({
    name: reader.name, read: () => reader.read().finally(() => upstream.close()),
  }))];
}

/** Before the chain closes: held against every witness; a refusal leaves the home as it was (the trail is closed unchanged). */
async function holdToWitnesses(trail: AuditTrail, home: string, flags: RotateFlags, context: CliContext): Promise<void> {
  const readers = await witnessReaders(home, await readWitnessSetting(home), context);
  if (readers.length === 0) return;
  const { holdRotationToWitnesses } = await import('../../gateway/witness-before-rotate.js');
  try {
    await holdRotationToWitnesses(trail, {
      home, readers, acceptGap: flags.acceptAuditGap === true, acceptedBy: 'gw audit rotate --accept-audit-gap',
      warn: (message) => context.stderr.write(`audit witness ${message}\n`),
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'RotateBehindWitnessError') throw new CliExit(1, error.message);
    throw error;
  }
}

async function rotateHome(home: string, flags: RotateFlags, context: CliContext): Promise<Rotated> {
  let trail;
  const newest = new Map<string, SignedCheckpoint>();
  const keep = (checkpoint: SignedCheckpoint) => { if (newest.get(checkpoint.trail)?.closed !== true) newest.set(checkpoint.trail, checkpoint); };
  try {
    // fsync 'always': a rotation is rare and every step of it must be on disk before the next.
    trail = await openAuditTrail({
      dir: path.join(home, 'audit'), keyPath: path.join(home, 'audit.key'), fsync: 'always', role: 'cli',
      onCheckpoint: (checkpoint) => { if (isSignedCheckpoint(checkpoint)) keep(checkpoint); },
    });
  } catch (error) {
    if (error instanceof AuditLockedError) {
      throw new CliExit(1, `${error.message}: a running gw rotates its own trail; run gw audit rotate --hub http://HOST:PORT against it (admin token from gw login --admin or GW_ADMIN_TOKEN)`);
    }
    throw new CliExit(1, `cannot open the audit trail: ${errorMessage(error)}`);
  }
  try {
    await holdToWitnesses(trail, home, flags, context);
    const summary = await trail.rotate!();
    await trail.close();
    const checkpoints = [newest.get(summary.closed_trail), newest.get(summary.trail)].filter((checkpoint) => checkpoint !== undefined);
    return { summary, checkpoints };
  } catch (error) {
    if (error instanceof CliExit) throw error;
    throw new CliExit(1, `gw audit rotate: ${errorMessage(error)}`);
  } finally {
    await trail.close();
  }
}

async function readWitnessSetting(home: string): Promise<string | null> {
  const state = await openState(home, undefined);
  const setting = state.snapshot().settings.audit_witness;
  await state.close();
  return setting;
}

/** Sends the rotation's checkpoints to the configured witness; never fails the rotation, which is done: says what it could not do. */
async function pushToWitness(home: string, checkpoints: SignedCheckpoint[], context: CliContext): Promise<string | null> {
  const setting = await readWitnessSetting(home);
  if (setting === null || checkpoints.length === 0) return null;
  // The witness targets (and the HTTP client under them) are the gateway's; loaded only when a witness is set.
  const { pushToSettingWitness } = await import('../../gateway/witness-targets.js');
  const pushed = await pushToSettingWitness(setting, await ensureInstanceId(home), checkpoints);
  if (pushed.sent) return `${pushed.witness}: sent`;
  if (pushed.refused !== undefined) {
    context.stderr.write(`audit witness ${pushed.witness} refused ${pushed.refused}\n`);
    return `${pushed.witness}: refused`;
  }
  context.stderr.write(`audit witness ${pushed.witness} could not be reached (${pushed.unreachable ?? 'no answer'}): the next gw serve sends it the closed checkpoint\n`);
  return `${pushed.witness}: unreachable, left for the next start`;
}

function print(summary: RotationSummary, flags: RotateFlags, context: CliContext, witness: string | null = null): void {
  if (flags.json) {
    context.stdout.write(`${JSON.stringify(witness === null ? summary : { ...summary, witness })}\n`);
    return;
  }
  context.stdout.write(`audit chain ${summary.closed_trail.slice(0, 12)}… closed at seq ${summary.closed_seq} (key ${summary.previous_key_fingerprint}); `
    + `new chain ${summary.trail.slice(0, 12)}… signed by key ${summary.next_key_fingerprint}, trusted by rotation\n`);
  if (witness !== null) context.stdout.write(`witness ${witness}\n`);
}

async function runAuditRotate(flags: RotateFlags, context: CliContext): Promise<void> {
  const hub = await remoteHub(flags.hub, context, flags.home);
  const body = flags.acceptAuditGap ? { accept_audit_gap: true } : {};
  if (hub) return print(await callHub<RotationSummary>(hub, 'POST', '/admin/api/audit/rotate', body), flags, context);
  const home = context.home(flags.home);
  const store = resolveStoreUrl(flags.store, context.env);
  // PostgreSQL (and pg) are loaded only when a store is named.
  const rotateStore = async (url: string) => (await import('../../postgres/rotate-store-offline.js')).rotateStoreOffline(url, home);
  if (store === undefined) {
    const { summary, checkpoints } = await rotateHome(home, flags, context);
    return print(summary, flags, context, await pushToWitness(home, checkpoints, context));
  }
  const summary = await rotateStore(store).catch((error: unknown) => {
    if (error instanceof AuditRotationError) throw new CliExit(1, `gw audit rotate: ${error.message}`);
    throw error;
  });
  print(summary, flags, context);
}

export function registerAuditRotateCommand(audit: Command, context: CliContext): void {
  audit
    .command('rotate')
    .description('Close the audit chain and open the next under a new signing key (trusted by rotation)')
    .option('--hub <url>', 'the running gw to rotate, over its admin API (admin token from gw login --admin or GW_ADMIN_TOKEN)')
    .option('--home <dir>', 'gw home folder, when no gw runs on it (default: $GW_HOME or the platform config folder)')
    .option('--store <url>', 'PostgreSQL store (GW_DATABASE_URL): rotate this home\'s instance key there while no gw runs')
    .option('--accept-audit-gap', 'rotate even when the chain is behind or forked from what a witness holds, recording an audit.gap')
    .option('--json', 'print one JSON object')
    .action(async (flags: RotateFlags) => runAuditRotate(flags, context));
}
