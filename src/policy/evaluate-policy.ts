// The access part of a policy: may this identity use this model, provider and
// operation, with this many output tokens? The first refusal wins and carries a
// reason that names the scope and the rule, for the error message and the audit.
import { matchesAny } from './match-glob.js';
import type { PolicyRecord } from './policy-record.js';

export interface PolicyRequest {
  model: string | null;
  operation: string;
  maxTokens: number | null;
  /** The call runs a model it does not name (a provider default, or a field gw cannot read). */
  unnamedModel?: boolean;
  /**
   * Other names of the same model (a passthrough model is checked as `openai/gpt-4o` and known
   * to the provider as `gpt-4o`): deny_models refuses when any name matches, allow_models admits when any does.
   */
  modelAliases?: readonly string[];
}

export interface PolicyRefusal {
  scope: string;
  shadow: boolean;
  reason: string;
}

type Check = (record: PolicyRecord, request: PolicyRequest) => string | null;

function listCheck(kind: 'model' | 'operation', allow: keyof PolicyRecord, deny: keyof PolicyRecord): Check {
  return (record, request) => {
    const value = kind === 'model' ? request.model : request.operation;
    const allowedList = record[allow] as string[] | undefined;
    if (value === null && kind === 'model' && request.unnamedModel && allowedList !== undefined) {
      return `the call names no model (the provider would pick one), and ${String(allow)} is set (${allowedList.join(', ') || 'empty'}); name the model`;
    }
    if (value === null) return null;
    const names = kind === 'model' && request.modelAliases ? [value, ...request.modelAliases] : [value];
    const denied = record[deny] as string[] | undefined;
    if (names.some((name) => matchesAny(denied, name))) return `${kind} "${value}" matches ${String(deny)} (${denied!.join(', ')})`;
    const allowed = record[allow] as string[] | undefined;
    if (allowed !== undefined && !names.some((name) => matchesAny(allowed, name))) return `${kind} "${value}" is not in ${String(allow)} (${allowed.join(', ') || 'empty'})`;
    return null;
  };
}

const checkModel = listCheck('model', 'allow_models', 'deny_models');

const CHECKS: Check[] = [
  checkModel,
  listCheck('operation', 'allow_operations', 'deny_operations'),
  (record, request) => record.max_tokens !== undefined && request.maxTokens !== null && request.maxTokens > record.max_tokens
    ? `max tokens ${request.maxTokens} is over the cap of ${record.max_tokens}` : null,
];

export function evaluateAccess(records: readonly PolicyRecord[], request: PolicyRequest): PolicyRefusal[] {
  const refusals: PolicyRefusal[] = [];
  for (const record of records) {
    for (const check of CHECKS) {
      const reason = check(record, request);
      if (reason !== null) refusals.push({ scope: record.scope, shadow: record.mode === 'shadow', reason: `policy ${record.scope}: ${reason}` });
    }
  }
  return refusals;
}

/**
 * The model lists alone, for a model a call runs besides the one it was decoded with (a
 * passthrough body's, a batch's lines): the operation and max-token checks ran already.
 */
export function evaluateModelAccess(records: readonly PolicyRecord[], request: Omit<PolicyRequest, 'operation' | 'maxTokens'>): PolicyRefusal[] {
  const refusals: PolicyRefusal[] = [];
  for (const record of records) {
    const reason = checkModel(record, { ...request, operation: '', maxTokens: null });
    if (reason !== null) refusals.push({ scope: record.scope, shadow: record.mode === 'shadow', reason: `policy ${record.scope}: ${reason}` });
  }
  return refusals;
}

/** Whether any of the records restricts models (allow_models or deny_models). */
export function hasModelList(records: readonly PolicyRecord[]): boolean {
  return records.some((record) => record.allow_models !== undefined || record.deny_models !== undefined);
}

/** Why a provider may not serve this identity, or null: routing skips such targets. */
export function refuseProvider(records: readonly PolicyRecord[], provider: string): PolicyRefusal | null {
  for (const record of records) {
    let reason: string | null = null;
    if (matchesAny(record.deny_providers, provider)) reason = `provider "${provider}" matches deny_providers (${record.deny_providers!.join(', ')})`;
    else if (record.allow_providers !== undefined && !matchesAny(record.allow_providers, provider)) reason = `provider "${provider}" is not in allow_providers (${record.allow_providers.join(', ') || 'empty'})`;
    if (reason !== null) return { scope: record.scope, shadow: record.mode === 'shadow', reason: `policy ${record.scope}: ${reason}` };
  }
  return null;
}
