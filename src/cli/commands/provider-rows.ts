// What `gw providers list` shows: every provider gw would use, where it came
// from, and how its key is held (`env:VAR`, `set`, `none`), never the key;
// a password inside a base URL shows as `***`.
import { maskUrlCredentials } from '../../mask-url-credentials.js';
import { readProviderEnvironment, type Environment } from '../../config/providers-from-env.js';
import { resolveProviders } from '../../config/resolve-providers.js';
import type { ProviderConfig } from '../../providers/provider-adapter.js';
import type { ProviderRecord } from '../../state/schema.js';

export interface ProviderRow {
  name: string;
  kind: string;
  base_url: string;
  source: ProviderConfig['source'];
  key: string;
  preset?: string;
  api_version?: string;
  /** False when gw serve would skip it (see the warnings). */
  in_use: boolean;
}

export function describeProviderRows(records: readonly ProviderRecord[], env: Environment): { rows: ProviderRow[]; warnings: string[] } {
  const { providers, warnings } = resolveProviders({ env, state: { providers: records } });
  const inUse = new Set(providers.map((provider) => provider.name));
  const stateNames = new Set(records.map((record) => record.name));
  const rows: ProviderRow[] = records.map((record) => ({
    name: record.name, kind: record.kind, base_url: maskUrlCredentials(record.base_url), source: 'state',
    key: record.api_key === null ? 'none' : record.api_key.startsWith('env:') ? record.api_key : 'set',
    ...(record.preset === undefined ? {} : { preset: record.preset }),
    ...(record.api_version === undefined ? {} : { api_version: record.api_version }),
    in_use: inUse.has(record.name),
  }));
  for (const provider of readProviderEnvironment(env).providers) {
    if (stateNames.has(provider.name)) continue;
    rows.push({
      name: provider.name, kind: provider.kind, base_url: maskUrlCredentials(provider.baseUrl), source: provider.source,
      key: provider.apiKeyFrom ?? 'none',
      ...(provider.preset === undefined ? {} : { preset: provider.preset }),
      ...(provider.apiVersion === undefined ? {} : { api_version: provider.apiVersion }),
      in_use: true,
    });
  }
  rows.sort((left, right) => left.name.localeCompare(right.name));
  return { rows, warnings: warnings.map(maskUrlCredentials) };
}

export function formatProviderTable(rows: readonly ProviderRow[]): string {
  const header = ['NAME', 'KIND', 'BASE URL', 'SOURCE', 'KEY', 'STATUS'];
  const cells = rows.map((row) => [row.name, row.kind, row.base_url, row.source, row.key, row.in_use ? 'in use' : 'skipped']);
  const table = [header, ...cells];
  const widths = header.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  return table.map((row) => `${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()}\n`).join('');
}
