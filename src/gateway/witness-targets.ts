// Which witnesses a gateway's signed audit checkpoints go to: a sidecar's hub (through
// the hub upstream wrapper, so the sidecar's own credential names it), and the
// operator's `audit_witness` setting, an http(s) endpoint or a file on another volume.
// Every checkpoint carries this home's instance id, the sender the witness files it under.
// The same list, read back, is what the start check asks (witness-readers.ts).
import { createFileWitness } from '../audit/file-witness.js';
import type { WitnessPusher } from '../audit/witness-pusher.js';
import { createHttpWitness, createHubWitness } from '../sidecar/hub-witness.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';

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

export function addWitnessTargets(pusher: WitnessPusher, input: WitnessTargetInput): void {
  if (input.hub !== null) pusher.addTarget(createHubWitness(input.upstream, input.hub, input.instance));
  const setting = input.setting;
  if (setting === null) return;
  pusher.addTarget(isHttpWitness(setting) ? createHttpWitness(input.upstream, setting, `http ${setting}`, input.instance) : createFileWitness(setting, input.instance));
}
