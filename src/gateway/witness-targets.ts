// Which witnesses a gateway's signed audit checkpoints go to: a sidecar's hub (through
// the hub upstream wrapper, so the sidecar's own credential names it), and the
// operator's `audit_witness` setting, an http(s) endpoint or a file on another volume.
// Every checkpoint carries this home's instance id, the sender the witness files it under.
// The same list, read back, is what the start check asks (witness-at-start.ts); what a
// witness lacks of the home's closed chains (a rotation done with no gw running that could
// not reach it) goes to it first.
import path from 'node:path';
import type { SignedCheckpoint } from '../audit/checkpoint.js';
import { listClosedChains, readSignedCheckpoint } from '../audit/closed-chains.js';
import type { WitnessedCheckpoint } from '../audit/compare-witness.js';
import { createFileWitness } from '../audit/file-witness.js';
import type { WitnessPusher, WitnessTarget } from '../audit/witness-pusher.js';
import { createHttpWitness, createHubWitness } from '../sidecar/hub-witness.js';
import { createUpstreamClient, type UpstreamClient } from '../upstream/upstream-client.js';

export interface WitnessTargetInput {
  /** Setting audit_witness (read at start). */
  setting: string | null;
  /** The sidecar's hub, or null for a standalone gateway or hub. */
  hub: string | null;
  /** The upstream client as the mode wrapped it (a sidecar's adds its hub credential). */
  upstream: UpstreamClient;
  /** This home's instance id ($GW_HOME/instance-id). */
  instance?: string;
}

export function isHttpWitness(setting: string): boolean {
  return /^https?:\/\//i.test(setting);
}

/** The witness of the `audit_witness` setting (also gw audit rotate's, with no gw running). */
function settingWitness(setting: string, upstream: UpstreamClient, instance: string | undefined): WitnessTarget {
  return isHttpWitness(setting) ? createHttpWitness(upstream, setting, `http ${setting}`, instance) : createFileWitness(setting, instance);
}

/** `lacking`: per witness name, closed checkpoints the start found it without (closedCheckpointsLacking). */
export function addWitnessTargets(pusher: WitnessPusher, input: WitnessTargetInput, lacking: ReadonlyMap<string, SignedCheckpoint[]> = new Map()): void {
  const add = (target: WitnessTarget) => pusher.addTarget(target, lacking.get(target.name) ?? []);
  if (input.hub !== null) add(createHubWitness(input.upstream, input.hub, input.instance));
  if (input.setting !== null) add(settingWitness(input.setting, input.upstream, input.instance));
}

/** The closed checkpoints of the home's closed chains (audit/chains/) that a witness's entries do not hold. */
export async function closedCheckpointsLacking(home: string, entries: readonly WitnessedCheckpoint[]): Promise<SignedCheckpoint[]> {
  const lacking: SignedCheckpoint[] = [];
  for (const files of await listClosedChains(path.join(home, 'audit'))) {
    const closed = await readSignedCheckpoint(files.checkpoint);
    if (closed === undefined || closed.closed !== true) continue;
    const held = entries.some((entry) => entry.trail === closed.trail && entry.seq === closed.seq && entry.closed === true);
    if (!held) lacking.push(closed);
  }
  return lacking;
}

/** How `gw audit rotate` with no gw running fared with the setting's witness (src/cli/commands/audit-rotate.ts). */
export type OfflinePush = { witness: string; sent: true } | { witness: string; sent: false; refused?: string; unreachable?: string };

/** Sends `checkpoints` in order to the `audit_witness` setting's witness, with a client of its own; stops at the first failure. */
export async function pushToSettingWitness(setting: string, instance: string, checkpoints: readonly SignedCheckpoint[]): Promise<OfflinePush> {
  const upstream = createUpstreamClient();
  const target = settingWitness(setting, upstream, instance);
  try {
    for (const checkpoint of checkpoints) {
      const answer = await target.send(checkpoint);
      if (!answer.ok) return { witness: target.name, sent: false, refused: `checkpoint ${checkpoint.seq}: ${answer.refused}` };
    }
    return { witness: target.name, sent: true };
  } catch (error) {
    return { witness: target.name, sent: false, unreachable: error instanceof Error ? error.message : String(error) };
  } finally {
    await upstream.close();
  }
}
