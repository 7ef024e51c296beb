// GET /managed/settings of Anthropic's gateway protocol: the Claude Code managed settings
// of the caller's team (or everyone's), with what gw knows added: the team's model
// allow-list as `availableModels` (unless the admin named them) and the telemetry
// endpoint pointing at this hub. The answer is `{uuid, checksum, settings}` as the
// reference gateway serves it: the checksum is `sha256:` + SHA-256 of the settings as
// JSON with sorted keys, so it changes exactly when what a laptop receives does.
import { createHash } from 'node:crypto';
import { claudeSettingsFor } from '../state/claude-settings.js';
import { isObject } from '../state/claude-settings-schema.js';
import type { StateData } from '../state/schema.js';

export interface ManagedSettings {
  uuid: string;
  checksum: string;
  settings: Record<string, unknown>;
  /** Whose settings these are: `team:NAME` or `*`. */
  scope: string;
}

/** Claude Code exports its OpenTelemetry to the gateway (the reference's same variables). */
function telemetryEnv(baseUrl: string): Record<string, string> {
  return {
    CLAUDE_CODE_ENABLE_TELEMETRY: '1', OTEL_METRICS_EXPORTER: 'otlp', OTEL_LOGS_EXPORTER: 'otlp', OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: baseUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
  };
}

/** Exact Anthropic models the team's (or everyone's) policy allows, as Claude Code names them (no provider prefix); globs cannot be offered. */
function allowedClaudeModels(state: StateData, team: string): string[] {
  const policy = state.policies.find((candidate) => candidate.scope === `team:${team}`) ?? state.policies.find((candidate) => candidate.scope === '*');
  const models = (policy?.allow_models ?? [])
    .filter((pattern) => !/[*?[\]{}]/.test(pattern))
    .map((pattern) => (pattern.startsWith('anthropic/') ? pattern.slice('anthropic/'.length) : pattern))
    .filter((model) => !model.includes('/'));
  return [...new Set(models)];
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(Reflect.get(value, key))]));
  }
  return value;
}

/** What a member of `team` receives, or null when neither the team nor everyone has settings. */
export function managedSettingsFor(state: StateData, team: string, baseUrl: string): ManagedSettings | null {
  const stored = claudeSettingsFor(state, team);
  if (stored === null) return null;
  const settings: Record<string, unknown> = { ...stored.settings };
  // The admin's own env values win over gw's, as in the reference gateway.
  settings.env = { ...telemetryEnv(baseUrl), ...(isObject(stored.settings.env) ? stored.settings.env : {}) };
  const models = allowedClaudeModels(state, team);
  if (settings.availableModels === undefined && models.length > 0) settings.availableModels = models;
  const checksum = `sha256:${createHash('sha256').update(JSON.stringify(sortKeys(settings))).digest('hex')}`;
  return { uuid: checksum, checksum, settings, scope: stored.scope };
}
