// gw db migrate: applies the schema versions in migrations/postgres to the store.
// gw state export | gw state import: moves a home's state between state.json and
// PostgreSQL (either way), with the hub secret when asked (live keys and session
// credentials are derived from it, so a hub moved without it re-issues them).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { describeDatabaseError, openDatabase } from '../../postgres/database.js';
import { migrate } from '../../postgres/migrations.js';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { HUB_SECRET_NAME } from '../../hub/hub-secret.js';
import { parseStateText } from '../../state/parse-state.js';
import { StateError } from '../../state/state-errors.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { withStore } from '../state-command.js';
import { stateWithoutSecrets } from '../state-without-secrets.js';

const HOME_OPTION = ['--home <dir>', 'gw home folder (default: $GW_HOME or the platform config folder)'] as const;

interface ExportedState {
  gw_state_export: 1;
  state: unknown;
  secrets?: Record<string, string>;
  /** Without --with-secrets: the secrets left out, named (never their values). */
  left_out?: string[];
}

export function registerDbCommands(program: Command, context: CliContext): void {
  program.command('db').description('The PostgreSQL store\'s schema')
    .command('migrate')
    .description('Apply the schema versions this gw has and the database lacks (gw serve --store only checks)')
    .option('--store <url>', 'the PostgreSQL store (GW_DATABASE_URL)')
    .action(async (flags: { store?: string }) => {
      const url = resolveStoreUrl(flags.store, context.env);
      if (url === undefined) throw new CliExit(2, 'name the PostgreSQL store with --store URL (or GW_DATABASE_URL)');
      const database = openDatabase(url, { maxConnections: 2 });
      try {
        const applied = await migrate(database);
        context.stdout.write(applied.length === 0 ? 'schema up to date\n' : applied.map((migration) => `applied ${String(migration.version).padStart(4, '0')}_${migration.name}\n`).join(''));
      } catch (error) {
        if (error instanceof StateError) throw new CliExit(1, error.message);
        throw new CliExit(1, `cannot migrate ${describeDatabaseError(url, error)}`);
      } finally {
        await database.end().catch(() => undefined);
      }
    });

  const state = program.command('state').description('Move the state between state.json and PostgreSQL');
  state.command('export')
    .description('Print the state (teams, people, key digests, tokens, policies, settings…) as JSON, without provider and server secrets unless --with-secrets')
    .option('--with-secrets', 'include the hub secret and the provider keys, URL passwords and MCP headers given as values (keep the output as safe as the hub itself)')
    .option(...HOME_OPTION)
    .action(async (flags: { withSecrets?: boolean; home?: string }) => {
      const exported = await withStore(context, flags.home, async (store): Promise<ExportedState> => {
        if (!flags.withSecrets) {
          const { state: kept, leftOut } = stateWithoutSecrets(store.snapshot());
          return { gw_state_export: 1, state: kept, ...(leftOut.length > 0 ? { left_out: leftOut } : {}) };
        }
        return { gw_state_export: 1, state: store.snapshot(), secrets: { [HUB_SECRET_NAME]: (await store.loadOrCreateSecret(HUB_SECRET_NAME, 32)).toString('base64') } };
      });
      context.stdout.write(`${JSON.stringify(exported, null, 2)}\n`);
      if (exported.left_out) context.stderr.write(`gw: left out of the export (give --with-secrets to include them): ${exported.left_out.join('; ')}\n`);
    });
  state.command('import')
    .description('Replace the state with an export (from a file, or - for standard input)')
    .argument('<file>', 'what gw state export printed, or - to read standard input')
    .option(...HOME_OPTION)
    .action(async (file: string, flags: { home?: string }) => {
      const text = file === '-' ? await readStdin() : await readFile(file, 'utf8').catch((error: Error) => { throw new CliExit(2, `cannot read ${file}: ${error.message}`); });
      const exported = parseExport(text, file);
      await withStore(context, flags.home, async (store) => {
        for (const [name, value] of Object.entries(exported.secrets ?? {})) await store.importSecret(name, Buffer.from(value, 'base64'));
        await store.update((draft) => {
          for (const key of Object.keys(draft)) delete (draft as unknown as Record<string, unknown>)[key];
          Object.assign(draft, exported.state);
        });
      });
      context.stdout.write(`imported the state${exported.secrets ? ' and the hub secret' : ''}\n`);
    });
}

function parseExport(text: string, source: string): { state: object; secrets?: Record<string, string> } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliExit(2, `${source} is not JSON: give what gw state export printed`);
  }
  const exported = value as Partial<ExportedState> | null;
  if (typeof exported !== 'object' || exported === null || exported.gw_state_export !== 1) throw new CliExit(2, `${source} is not a gw state export`);
  // The same checks state.json gets: an export edited by hand must not reach the store unchecked.
  try {
    const state = parseStateText(JSON.stringify(exported.state), source);
    return { state, ...(exported.secrets ? { secrets: exported.secrets } : {}) };
  } catch (error) {
    throw new CliExit(2, error instanceof Error ? error.message : String(error));
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
