// gw audit export: one chain, of the home's file trail or of the PostgreSQL store (--store),
// as the JSON Lines gw audit verify --file reads (--format jsonl, the default) or as OCSF
// events with the record_integrity profile (--format ocsf; gw audit verify --ocsf checks
// them offline). docs/audit-ocsf.md.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { exportOcsf, type OcsfExportSummary } from '../../audit/ocsf/export-ocsf.js';
import { chainLines, listChains } from '../../postgres/postgres-audit-chains.js';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { CliExit, type CliContext, type CliOutput } from '../cli-context.js';
import { fileTrailSource, type TrailSource } from '../trail-source.js';
import { withDatabase } from './audit-store.js';
import { readWitness } from '../read-witness.js';
import { isSignedCheckpoint, type SignedCheckpoint } from '../../audit/checkpoint.js';
import { cosignatureFileOf, readCosignatureFile } from '../../audit/cosignature-file.js';
import type { StoredCosignature } from '../../audit/cosignature.js';
import { chainCosignatures } from '../../postgres/postgres-audit-cosignatures.js';
import { errorMessage } from '../../error-message.js';

interface ExportFlags {
  format?: string;
  since?: string;
  until?: string;
  store?: string;
  chain?: string;
  out?: string;
  home?: string;
  witness?: string;
}

interface Window {
  since?: number;
  until?: number;
}

function timeOf(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (!Number.isFinite(time)) throw new CliExit(2, `${flag} ${value} is not an ISO 8601 time (e.g. 2026-11-27 or 2026-11-27T14:00:00Z)`);
  return time;
}

interface Output extends CliOutput {
  /** Resolves once what was written so far is on its way to disk: the export waits here so its memory stays flat. */
  settle(): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** --out: written to a temporary file and renamed at the end, so a failed export leaves no half file under the name. */
async function openOutput(out: string | undefined, context: CliContext): Promise<Output> {
  if (out === undefined) return { write: (text) => context.stdout.write(text), settle: async () => undefined, close: async () => undefined, abort: async () => undefined };
  const target = path.resolve(out);
  const temporary = `${target}.${process.pid}.tmp`;
  const handle: FileHandle = await open(temporary, 'w').catch((error: unknown) => { throw new CliExit(2, `cannot write ${target}: ${errorMessage(error)}`); });
  let buffered: string[] = [];
  let size = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const flush = () => { const chunk = buffered.join(''); buffered = []; size = 0; writing = writing.then(() => handle.write(chunk)); return writing; };
  return {
    // A failed write surfaces at close, which awaits the same chain.
    write: (text) => { buffered.push(text); size += text.length; if (size > 1 << 20) flush().catch(() => undefined); },
    settle: async () => { await writing; },
    close: async () => { await flush(); await handle.close(); await rename(temporary, target); },
    abort: async () => { await handle.close().catch(() => undefined); await rm(temporary, { force: true }); },
  };
}

function inWindow(line: string, window: Window): boolean {
  if (window.since === undefined && window.until === undefined) return true;
  let time: number;
  try {
    time = Date.parse((JSON.parse(line) as { ts: string }).ts);
  } catch {
    return true; // a damaged line is exported as it is: gw audit verify --file names it
  }
  return (window.since === undefined || time >= window.since) && (window.until === undefined || time <= window.until);
}

function describeOcsf(summary: OcsfExportSummary, source: TrailSource, window: Window): string[] {
  const cosigned = summary.cosigned ? `, ${summary.cosigned} cosigned by a witness` : '';
  const notes = [`${summary.events} OCSF events of chain ${summary.chain ?? '(empty)'} from ${source.name}, ${summary.signed} of them signed${cosigned}`];
  if (summary.cosigned && summary.lastSigned && !summary.lastCosigned) notes.push('the last event is not cosigned by a witness yet (it cosigns every few seconds): gw audit verify --ocsf --witness-key will refuse this file until an export ends on a cosigned event');
  if (summary.unsignedTail > 0) notes.push(`${summary.unsignedTail} newer record(s) past the checkpoint are not signed yet: the next export includes them`);
  if (summary.events > 0 && !summary.lastSigned) {
    const why = source.checkpoint === null ? 'the trail has no checkpoint' : window.until !== undefined ? '--until ends before the chain\'s checkpoint' : 'the checkpoint is not a signed (v2) one';
    notes.push(`the last event is not signed (${why}): gw audit verify --ocsf will refuse this file`);
  }
  return notes;
}

interface Signatures {
  witnessed: readonly SignedCheckpoint[];
  cosignatures: readonly StoredCosignature[];
}

async function writeChain(source: TrailSource, format: string, window: Window, output: Output, context: CliContext, { witnessed, cosignatures }: Signatures): Promise<void> {
  if (format === 'jsonl') {
    let count = 0;
    for await (const line of source.lines) {
      if (line === '' || !inWindow(line, window)) continue;
      output.write(`${line}\n`);
      if (++count % 1024 === 0) await output.settle();
    }
    return;
  }
  const summary: OcsfExportSummary = { events: 0, signed: 0, lastSigned: false, unsignedTail: 0 };
  try {
    for await (const event of exportOcsf(source.lines, { checkpoint: source.checkpoint, witnessed, cosignatures, ...window }, summary)) {
      output.write(`${event}\n`);
      if (summary.events % 1024 === 0) await output.settle();
    }
  } catch (error) {
    if (error instanceof CliExit) throw error;
    throw new CliExit(1, `cannot export ${source.name}: ${errorMessage(error)}`);
  }
  for (const note of describeOcsf(summary, source, window)) context.stderr.write(`note: ${note}\n`);
}

async function runExport(flags: ExportFlags, context: CliContext): Promise<void> {
  const format = flags.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'ocsf') throw new CliExit(2, `--format ${format}: use jsonl or ocsf`);
  const window: Window = { ...(flags.since ? { since: timeOf('--since', flags.since) } : {}), ...(flags.until ? { until: timeOf('--until', flags.until) } : {}) };
  const url = resolveStoreUrl(flags.store, context.env);
  if (url === undefined && flags.chain !== undefined) throw new CliExit(2, '--chain names a chain of the PostgreSQL store: add --store URL');
  if (flags.witness !== undefined && format !== 'ocsf') throw new CliExit(2, '--witness adds the witnessed signatures to OCSF events: use it with --format ocsf');
  // The witness's checkpoints of this chain sign the records they are at (read before the trail, as verify does).
  const witnessed = flags.witness === undefined ? [] : await readWitness(flags.witness, context.home(flags.home), context.env);
  const source = url === undefined ? await fileTrailSource(context.home(flags.home)) : undefined;
  const output = await openOutput(flags.out, context);
  try {
    // The witnesses' cosignatures kept beside the chain go in the attestations too (no flag: they are the instance's own copy).
    if (source) await writeChain(source, format, window, output, context, { witnessed, cosignatures: (await readCosignatureFile(cosignatureFileOf(context.home(flags.home)))).cosignatures });
    else await withDatabase(url!, async (database) => {
      const chains = await listChains(database);
      const chain = flags.chain === undefined ? chains.at(-1) : chains.find((candidate) => candidate.chainId === flags.chain);
      if (!chain) throw new CliExit(2, flags.chain === undefined ? 'the store holds no audit chain yet' : `no chain ${flags.chain} in the store (gw audit chains lists them)`);
      const cosignatures = chain.checkpoint && isSignedCheckpoint(chain.checkpoint) ? await chainCosignatures(database, chain.checkpoint.trail) : [];
      await writeChain({ name: `chain ${chain.chainId} of the store`, checkpoint: chain.checkpoint, lines: chainLines(database, chain.chainId) }, format, window, output, context, { witnessed, cosignatures });
    });
    await output.close();
  } catch (error) {
    await output.abort();
    if (error instanceof CliExit) throw error;
    throw new CliExit(2, `cannot write ${flags.out ?? 'the export'}: ${errorMessage(error)}`);
  }
}

export function registerAuditExportCommand(audit: Command, context: CliContext): void {
  audit
    .command('export')
    .description('Write one chain of the trail (the home\'s, or the PostgreSQL store\'s with --store) as JSON Lines or as OCSF events')
    .option('--format <format>', 'jsonl (the records as stored; gw audit verify --file) or ocsf (OCSF 1.9 events with record_integrity; gw audit verify --ocsf)', 'jsonl')
    .option('--since <time>', 'only records stamped at or after this ISO 8601 time')
    .option('--until <time>', 'only records stamped at or before this ISO 8601 time')
    .option('--store <url>', 'the PostgreSQL store (GW_DATABASE_URL); without it, the home\'s file trail')
    .option('--chain <id>', 'with --store: the chain to export (gw audit chains lists them); default: the newest')
    .option('--out <file>', 'write to this file instead of standard output')
    .option('--witness <hub-url|file>', 'with --format ocsf: also sign the records at the checkpoints this witness kept (so a window ending on one verifies)')
    .option('--home <dir>', 'gw home folder (default: $GW_HOME or the platform config folder)')
    .action(async (flags: ExportFlags) => runExport(flags, context));
}
