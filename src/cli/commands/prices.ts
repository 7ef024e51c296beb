// `gw prices set|list|remove`: local prices (USD per million tokens, or per unit for media models:
// price-unit-flags.ts) for a provider's model, for private, self-hosted or negotiated prices; they
// win over the bundled dataset (@pydantic/genai-prices). `gw prices show` prices a sample call the
// way gw serve would.
import type { Command } from 'commander';
import { resolveProviders } from '../../config/resolve-providers.js';
import { createPriceBook } from '../../spend/price-book.js';
import type { StoredPrice } from '../../state/governance-schema.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';
import { collect, describeUnitPrices, readUnitFlags, UNIT_FLAG_HELP, usd, type UnitFlags } from './price-unit-flags.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

/** Flag → field; every flag is USD per million tokens. */
const RATE_FLAGS: ReadonlyArray<[keyof StoredPrice, string, string]> = [
  ['input_mtok', '--input <usd>', 'input tokens (uncached)'],
  ['output_mtok', '--output <usd>', 'output tokens (reasoning included)'],
  ['cache_read_mtok', '--cache-read <usd>', 'cached input read'],
  ['cache_write_mtok', '--cache-write <usd>', 'cache writes (5-minute lifetime)'],
  ['cache_write_1h_mtok', '--cache-write-1h <usd>', 'cache writes with a 1-hour lifetime'],
  ['input_audio_mtok', '--input-audio <usd>', 'audio input tokens'],
  ['output_audio_mtok', '--output-audio <usd>', 'audio output tokens'],
];

export function registerPricesCommand(program: Command, context: CliContext): void {
  const prices = program.command('prices').description('Model prices: the bundled dataset, and local overrides for private, self-hosted or negotiated prices');
  const set = prices.command('set').description('Set a local price for provider/model (USD per million tokens, or per image, audio minute or million characters); it wins over the dataset')
    .argument('<provider/model>', 'gw provider name and model, e.g. my-vllm/llama-3.1-70b');
  for (const [, flag, help] of RATE_FLAGS) set.option(flag, `USD per million ${help}`);
  set.option('--per-image <usd>', UNIT_FLAG_HELP.perImage, collect)
    .option('--per-audio-minute <usd>', UNIT_FLAG_HELP.perAudioMinute)
    .option('--per-million-characters <usd>', UNIT_FLAG_HELP.perMillionCharacters);
  set.option('--home <dir>', HOME_HELP).action(async (target: string, options: Record<string, string | undefined> & UnitFlags) => {
    const { provider, model } = splitTarget(target);
    // A media model may be priced per unit alone; otherwise --input and --output are required.
    const entry: StoredPrice = { provider, model, ...readUnitFlags(options) };
    const perUnitOnly = Object.keys(entry).length > 2 && options.input === undefined && options.output === undefined;
    for (const [field, flag] of RATE_FLAGS) {
      const value = options[camelName(flag)];
      if (value === undefined) {
        if (!perUnitOnly && (field === 'input_mtok' || field === 'output_mtok')) throw new CliExit(2, `${flag.split(' ')[0]} is required (or a per-unit price: --per-image, --per-audio-minute, --per-million-characters)`);
        continue;
      }
      (entry as unknown as Record<string, number>)[field] = usd(value, flag.split(' ')[0]!);
    }
    // The dataset requires a 1-hour write price to come with the 5-minute one it refines.
    if (entry.cache_write_1h_mtok !== undefined && entry.cache_write_mtok === undefined) throw new CliExit(2, '--cache-write-1h needs --cache-write as well');
    await withStore(context, options.home, (store) => store.update((draft) => {
      draft.prices = [...(draft.prices ?? []).filter((existing) => existing.provider !== provider || existing.model !== model), entry];
    }));
    context.stdout.write(`price ${provider}/${model}: ${describeRates(entry)}\n`);
  });
  prices.command('list').description('List local prices').option('--json', 'print JSON').option('--home <dir>', HOME_HELP)
    .action(async (options: { json?: boolean; home?: string }) => {
      const entries = await withStore(context, options.home, async (store) => store.snapshot().prices ?? []);
      if (options.json) return context.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
      if (entries.length === 0) return context.stdout.write('no local prices: the bundled dataset prices every call (gw prices set provider/model --input N --output N)\n');
      context.stdout.write(formatTable([['model', 'USD'], ...entries.map((entry) => [`${entry.provider}/${entry.model}`, describeRates(entry)])]));
    });
  prices.command('remove').description('Remove a local price (the dataset prices the model again)').argument('<provider/model>').option('--home <dir>', HOME_HELP)
    .action(async (target: string, options: { home?: string }) => {
      const { provider, model } = splitTarget(target);
      const removed = await withStore(context, options.home, (store) => store.update((draft) => {
        const before = (draft.prices ?? []).length;
        draft.prices = (draft.prices ?? []).filter((entry) => entry.provider !== provider || entry.model !== model);
        return before !== draft.prices.length;
      }));
      if (!removed) throw new CliExit(1, `no local price for ${target} (see gw prices list)`);
      context.stdout.write(`removed price ${target}\n`);
    });
  registerShow(prices, context);
}

interface ShowFlags { inputTokens?: string; outputTokens?: string; images?: string; size?: string; quality?: string; audioSeconds?: string; characters?: string; home?: string }

function registerShow(prices: Command, context: CliContext): void {
  prices.command('show').description('What a call to provider/model costs, and where the price comes from')
    .argument('<provider/model>').option('--input-tokens <n>', 'input tokens (default 1000000 unless units are given)').option('--output-tokens <n>', 'output tokens (default 1000000 unless units are given)')
    .option('--images <n>', 'images made').option('--size <size>', 'their size, e.g. 1024x1792').option('--quality <quality>', 'their quality, e.g. hd')
    .option('--audio-seconds <n>', 'seconds of audio transcribed').option('--characters <n>', 'characters spoken')
    .option('--home <dir>', HOME_HELP)
    .action(async (target: string, options: ShowFlags) => {
      const { provider, model } = splitTarget(target);
      const state = await withStore(context, options.home, async (store) => store.snapshot());
      const config = resolveProviders({ env: context.env, state }).providers.find((candidate) => candidate.name === provider);
      const book = createPriceBook(() => state.prices ?? []);
      const units = { images: count(options.images, '--images'), audio_seconds: count(options.audioSeconds, '--audio-seconds'), characters: count(options.characters, '--characters') };
      const hasUnits = Object.values(units).some((value) => value !== undefined);
      const tokens = { input: count(options.inputTokens ?? (hasUnits ? undefined : '1000000'), '--input-tokens'), output: count(options.outputTokens ?? (hasUnits ? undefined : '1000000'), '--output-tokens'), ...units };
      const image = { ...(options.size ? { size: options.size } : {}), ...(options.quality ? { quality: options.quality } : {}) };
      const cost = book.price({ provider, kind: config?.kind ?? provider, preset: config?.preset, model }, tokens, image);
      if (cost.nano_usd === undefined) throw new CliExit(1, `no price known for ${target}${hasUnits ? ' and these units' : ''}: gw prices set ${target} --input N --output N (or --per-image, --per-audio-minute, --per-million-characters)`);
      const what = Object.entries(tokens).filter(([, value]) => value !== undefined).map(([name, value]) => `${value} ${SHOWN[name]}`).join(', ');
      context.stdout.write(`${target}: $${(cost.nano_usd / 1e9).toFixed(6)} for ${what} (${cost.price}, priced as ${cost.priced_as})\n`);
    });
}

const SHOWN: Record<string, string> = { input: 'input tokens', output: 'output tokens', images: 'images', audio_seconds: 'seconds of audio', characters: 'characters' };

function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new CliExit(2, `invalid ${flag} "${value}": a whole number ≥ 0`);
  return Number(value);
}

function splitTarget(target: string): { provider: string; model: string } {
  const slash = target.indexOf('/');
  if (slash <= 0 || slash === target.length - 1) throw new CliExit(2, `invalid "${target}": write provider/model`);
  return { provider: target.slice(0, slash), model: target.slice(slash + 1) };
}

/** `--cache-write-1h <usd>` → commander's option name `cacheWrite1h`. */
function camelName(flag: string): string {
  return flag.split(' ')[0]!.slice(2).replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** `input 2, output 10 per million tokens; per image 0.04` */
function describeRates(entry: StoredPrice): string {
  const tokens = RATE_FLAGS.filter(([field]) => entry[field] !== undefined).map(([field, flag]) => `${flag.split(' ')[0]!.slice(2)} ${String(entry[field])}`).join(', ');
  return [...(tokens ? [`${tokens} per million tokens`] : []), ...describeUnitPrices(entry)].join('; ');
}
