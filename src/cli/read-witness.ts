// What a witness holds, for `gw audit verify --witness`: a hub (GET /audit/checkpoints,
// authenticated by this home's gw login, so the hub answers with this person's trails)
// or a witness file. Failures are CliExit 2: the witness could not be read, which
// proves nothing either way.
import type { WitnessedCheckpoint } from '../audit/compare-witness.js';
import { readWitnessLog, readWitnessed } from '../audit/witness-log.js';
import { HUB_WITNESS_PATH } from '../sidecar/hub-witness.js';
import { CliExit } from './cli-context.js';
import { findSidecarLogin } from './sidecar-login.js';
import { errorMessage } from '../error-message.js';

const READ_TIMEOUT_MS = 15_000;

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function isWitnessUrl(witness: string): boolean {
  return /^https?:\/\//i.test(witness);
}

async function readHubWitness(hub: string, home: string, env: NodeJS.ProcessEnv, fetchImpl: typeof fetch): Promise<WitnessedCheckpoint[]> {
  const login = await findSidecarLogin(home, env);
  if (login === null) throw new CliExit(2, 'reading a hub witness needs this home\'s gw login: run gw login (or set GW_TOKEN)');
  // The personal token goes to the hub that issued it and nowhere else, whatever URL was typed.
  if (originOf(hub) !== originOf(login.hub)) {
    throw new CliExit(2, `${hub} is not the hub this home is logged in to (${login.hub}): gw sends its login only there`);
  }
  const url = `${hub.replace(/\/+$/, '')}${HUB_WITNESS_PATH}`;
  let response: Response;
  try {
    response = await fetchImpl(url, { headers: { authorization: `Bearer ${login.token}` }, signal: AbortSignal.timeout(READ_TIMEOUT_MS) });
  } catch (error) {
    throw new CliExit(2, `cannot reach the witness ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  if (!response.ok) throw new CliExit(2, `the witness ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliExit(2, `the witness ${url} did not answer JSON`);
  }
  const items = (value as { checkpoints?: unknown }).checkpoints;
  if (!Array.isArray(items)) throw new CliExit(2, `the witness ${url} answered without a checkpoints list`);
  return items.map(readWitnessed).filter((entry): entry is WitnessedCheckpoint => entry !== null);
}

export async function readWitness(witness: string, home: string, env: NodeJS.ProcessEnv, fetchImpl: typeof fetch = fetch): Promise<WitnessedCheckpoint[]> {
  if (isWitnessUrl(witness)) return readHubWitness(witness, home, env, fetchImpl);
  try {
    return (await readWitnessLog(witness)).entries;
  } catch (error) {
    throw new CliExit(2, `cannot read the witness file ${witness}: ${errorMessage(error)}`);
  }
}
