// Unpriced calls in the console's usage report: a call whose model has no known price carries
// `cost: { price: 'unknown' }` (src/audit/record.ts), never a cost of 0, so the report counts
// them apart, per group and per day, and names their models for `gw prices set`. The same rule
// as `gw usage` (src/spend/usage-report.ts unpriced_calls), so the console and the CLI agree.

/** The fields of a request summary (trail-reader.ts RequestSummary) this file reads. */
interface PricedCall {
  provider?: string;
  model?: string;
  rule?: string;
  cost?: unknown;
}

/** A model that had unpriced calls in the window: `gw prices set <provider>/<model>` prices it. */
export interface UnpricedModel {
  provider: string | null;
  model: string;
  calls: number;
  /** Routing rules whose calls these were: a rule's call names the model that served it (gw routes). */
  rules?: string[];
}

export function isUnpriced(summary: PricedCall): boolean {
  const cost = summary.cost as { nano_usd?: unknown; price?: unknown } | undefined;
  return cost?.nano_usd === undefined && cost?.price === 'unknown';
}

/** Counts unpriced calls per model (provider and model), most calls first. */
export function createUnpricedModels(): { note(summary: PricedCall): void; list(): UnpricedModel[] } {
  const models = new Map<string, UnpricedModel>();
  return {
    note(summary) {
      const provider = summary.provider ?? null;
      const model = summary.model ?? '(no model)';
      const key = `${provider ?? ''}\u0000${model}`;
      const entry = models.get(key) ?? { provider, model, calls: 0 };
      entry.calls += 1;
      const rules = withRule(entry.rules, summary.rule);
      if (rules !== undefined) entry.rules = rules;
      models.set(key, entry);
    },
    list: () => sortUnpricedModels([...models.values()]),
  };
}

/** A row's rules with one more (sorted, once each); unchanged when the call named none. */
export function withRule(rules: string[] | undefined, rule: string | undefined): string[] | undefined {
  if (rule === undefined || rules?.includes(rule)) return rules;
  return [...(rules ?? []), rule].sort();
}

export function sortUnpricedModels(models: UnpricedModel[]): UnpricedModel[] {
  return models.sort((a, b) => b.calls - a.calls || `${a.provider}/${a.model}`.localeCompare(`${b.provider}/${b.model}`));
}

/** A usage window's bounds: `until` excluded, as `gw usage --until` (records at or after it are not summed). */
export function inWindow(ts: string, since?: string, until?: string): boolean {
  return !(since && ts < since) && !(until && ts >= until);
}
