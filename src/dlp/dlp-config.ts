// DLP configuration in state.json: a list of scopes, each `*` (everyone),
// `team:NAME` or `key:vk_…`, that override built-in rules' actions, add admin
// rules and switch output scanning. A request gets `*`, then its team's, then its
// key's: the narrower scope wins rule by rule. Defaults: secrets block, PII log.
import { BUILT_IN_DETECTORS } from './built-in-detectors.js';
import { createCleanTextCache, type CleanTextCache } from './clean-text-cache.js';
import { compileCustomRule, type CustomRuleRecord } from './custom-rule.js';
import type { Detector, DlpAction, DlpCategory } from './detector.js';
import type { ActiveRule } from './find-matches.js';

export type RuleSetting = DlpAction | 'off';

export interface DlpScopeRecord {
  scope: string;
  /** rule id → action (or off), for built-in and custom rules. */
  actions?: Record<string, RuleSetting>;
  custom?: CustomRuleRecord[];
  /** Scan streamed and JSON responses too (opt-in: it adds latency). */
  output_scan?: boolean;
}

export interface DlpSettings {
  rules: ActiveRule[];
  outputScan: boolean;
  /** Long texts these rules already found clean. */
  cache: CleanTextCache;
}

const DEFAULT_ACTIONS: Record<DlpCategory, DlpAction> = { secret: 'block', pii: 'log', custom: 'block' };

export function scopesFor(team: string, keyId: string | null): string[] {
  return ['*', `team:${team}`, ...(keyId ? [`key:${keyId}`] : [])];
}

export interface DlpResolver {
  resolve(records: readonly DlpScopeRecord[], team: string, keyId: string | null): DlpSettings;
}

/** Caches compiled admin rules by pattern, and each identity's rule set per state snapshot. */
export function createDlpResolver(): DlpResolver {
  const compiled = new Map<string, Detector>();
  let cachedFor: readonly DlpScopeRecord[] | null = null;
  let byIdentity = new Map<string, DlpSettings>();
  const compile = (rule: CustomRuleRecord): Detector => {
    const cacheKey = `${rule.id}\u0000${rule.case_insensitive ? 'i' : ''}\u0000${rule.pattern}`;
    let detector = compiled.get(cacheKey);
    if (!detector) {
      detector = compileCustomRule(rule);
      compiled.set(cacheKey, detector);
    }
    return detector;
  };
  return {
    resolve(records, team, keyId) {
      // A state with no DLP records hands a new empty list on each call (`state.dlp ?? []`): the
      // same rules, so the same settings and clean-text cache (a new cache a request never hits).
      if (records !== cachedFor && !(records.length === 0 && cachedFor?.length === 0)) {
        cachedFor = records;
        byIdentity = new Map();
      }
      const identity = `${team}\u0000${keyId ?? ''}`;
      let settings = byIdentity.get(identity);
      if (!settings) {
        settings = resolveDlpSettings(records, scopesFor(team, keyId), compile);
        byIdentity.set(identity, settings);
      }
      return settings;
    },
  };
}

export function resolveDlpSettings(records: readonly DlpScopeRecord[], scopes: readonly string[], compile: (rule: CustomRuleRecord) => Detector = compileCustomRule): DlpSettings {
  const actions = new Map<string, RuleSetting>();
  const custom = new Map<string, CustomRuleRecord>();
  let outputScan = false;
  for (const scope of scopes) {
    for (const record of records.filter((candidate) => candidate.scope === scope)) {
      for (const [id, setting] of Object.entries(record.actions ?? {})) actions.set(id, setting);
      for (const rule of record.custom ?? []) custom.set(rule.id, rule);
      if (record.output_scan !== undefined) outputScan = record.output_scan;
    }
  }
  const rules: ActiveRule[] = [];
  for (const detector of BUILT_IN_DETECTORS) {
    const setting = actions.get(detector.id) ?? DEFAULT_ACTIONS[detector.category];
    if (setting !== 'off') rules.push({ detector, action: setting });
  }
  for (const rule of custom.values()) {
    const setting = actions.get(rule.id) ?? rule.action;
    if (setting !== 'off') rules.push({ detector: compile(rule), action: setting });
  }
  return { rules, outputScan, cache: createCleanTextCache() };
}
