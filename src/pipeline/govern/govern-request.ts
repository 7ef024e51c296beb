// Stage 4, govern, between decode and planning: bring-your-own-key, policy (access,
// max tokens, rate limits; shadow mode), DLP over every string of the parsed body,
// then the external guardrails (guard-texts.ts). Decisions are made by the pure modules in src/policy and src/dlp;
// this file reads the live state, keeps the limiter and the DLP rule cache for the
// process, and records what was decided (never a matched text or a key).
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AuditTokens } from '../../audit/record.js';
import { createDlpResolver, type DlpResolver, type DlpSettings } from '../../dlp/dlp-config.js';
import { countRawKeys } from '../../dlp/count-json-keys.js';
import { decodePath, scanPlaces, type PlaceText } from '../../dlp/scan-places.js';
import { scanPlainText } from '../../dlp/scan-plain-text.js';
import { scanRequestBody } from '../../dlp/scan-request.js';
import { GatewayError } from '../../errors.js';
import { evaluateAccess } from '../../policy/evaluate-policy.js';
import { policiesFor, type PolicyRecord } from '../../policy/policy-record.js';
import { RateLimiter, type Admission, type LimitSpec, type Limiter } from '../../policy/rate-limiter.js';
import type { GatewayServices } from '../gateway-services.js';
import type { PipelineRequest } from '../pipeline-types.js';
import { modelAliasesFor } from './qualify-model.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import type { RequestTrace } from '../request-trace.js';
import { scanUpload } from './scan-upload.js';
import { forwardedClientHeaders } from './upstream-headers.js';
import { withoutGenAiKey } from './leaving-query.js';
import { guardRequestBody } from './guard-texts.js';

export interface Governed {
  policies: PolicyRecord[];
  dlp: DlpSettings;
  /** The caller's own provider key (x-gw-direct-key), or null. Never logged or stored. */
  directKey: string | null;
  /** Corrects the tokens-per-minute estimate with what the provider reported. */
  settle(tokens: AuditTokens | null): void;
}

interface ProcessGovernance {
  limiter: Limiter;
  dlp: DlpResolver;
}

const perProcess = new WeakMap<GatewayServices, ProcessGovernance>();

function governanceOf(services: GatewayServices): ProcessGovernance {
  let governance = perProcess.get(services);
  if (!governance) {
    governance = { limiter: services.limiter ?? new RateLimiter(() => services.now().getTime()), dlp: createDlpResolver() };
    perProcess.set(services, governance);
  }
  return governance;
}

export async function governRequest(request: PipelineRequest, inbound: InboundCall, services: GatewayServices, trace: RequestTrace): Promise<Governed> {
  const state = services.state.snapshot();
  const governance = governanceOf(services);
  const { team, keyId } = request.identity;
  const dlp = governance.dlp.resolve(state.dlp ?? [], team, keyId);
  // First: any refusal below is recorded with the model, which must be masked by then.
  if (dlp.rules.length > 0) scanWhatLeaves(request, inbound, dlp, trace);
  const directKey = readDirectKey(request, state.settings.allow_direct_keys, trace);
  const policies = policiesFor(state.policies ?? [], team, keyId);
  checkAccess(policies, inbound, request.body, trace, modelAliasesFor(policies, inbound.model, services));
  const admission = await admitLimits(governance.limiter, policies, request, trace);
  if (dlp.rules.length > 0) scanBody(request, dlp, trace, state.settings.unscanned_uploads === 'refuse');
  // External guardrails last: they see what DLP let through, and nothing leaves before their verdict.
  if (state.guardrails !== undefined && state.guardrails.length > 0) await guardRequestBody({ request, services, trace, model: inbound.model, operation: inbound.operation });
  return {
    policies, dlp, directKey,
    settle: (tokens) => admission.settle(tokens ? tokens.total ?? (tokens.input ?? 0) + (tokens.output ?? 0) : undefined),
  };
}

/** x-gw-direct-key: true → the caller's Authorization (or provider key header) value is the provider key. */
function readDirectKey(request: PipelineRequest, allowed: boolean, trace: RequestTrace): string | null {
  const flag = headerOf(request, 'x-gw-direct-key');
  if (flag === undefined) return null;
  if (!allowed) throw new GatewayError('GW_ERR_DIRECT_KEY_DISABLED');
  if (flag.trim().toLowerCase() !== 'true') throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'x-gw-direct-key must be "true" when present.' });
  const bearer = /^bearer\s+(\S+)$/i.exec(headerOf(request, 'authorization')?.trim() ?? '')?.[1];
  const key = [bearer, headerOf(request, 'x-api-key'), headerOf(request, 'x-goog-api-key'), headerOf(request, 'api-key')]
    .find((value): value is string => value !== undefined && value !== '' && !/^(sk-gw-|atu-)/.test(value));
  if (key === undefined) throw new GatewayError('GW_ERR_DIRECT_KEY_MISSING');
  // A fingerprint tells requests with the same key apart in the audit without revealing it.
  trace.noteData('direct_key', `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`);
  return key;
}

function checkAccess(policies: readonly PolicyRecord[], inbound: InboundCall, body: unknown, trace: RequestTrace, modelAliases: string[] | undefined): void {
  if (policies.length === 0) return;
  // A call that runs a model it does not name (the provider's default, or one inside a form gw
  // streams through unread) cannot pass an allow_models list.
  const unnamedModel = inbound.model === null && inbound.resource?.usesModel === true;
  const refusals = evaluateAccess(policies, { model: inbound.model, operation: inbound.operation, maxTokens: readMaxTokens(body), unnamedModel, ...(modelAliases ? { modelAliases } : {}) });
  for (const refusal of refusals) {
    if (!refusal.shadow) throw new GatewayError('GW_ERR_POLICY_DENIED', { message: `Refused by ${refusal.reason}.` });
    trace.noteWarning(`policy_shadow: ${refusal.reason}`);
  }
}

async function admitLimits(limiter: Limiter, policies: readonly PolicyRecord[], request: PipelineRequest, trace: RequestTrace): Promise<Admission> {
  const specs: LimitSpec[] = policies.filter((policy) => policy.requests_per_minute !== undefined || policy.tokens_per_minute !== undefined).map((policy) => ({
    scope: policy.scope, requestsPerMinute: policy.requests_per_minute, tokensPerMinute: policy.tokens_per_minute, shadow: policy.mode === 'shadow',
  }));
  if (specs.length === 0) return { refusals: [], settle: () => {} };
  // About four bytes a token: cheap, and corrected by the provider's usage afterwards.
  const estimate = Math.ceil((request.rawBody?.length ?? 0) / 4);
  const admission = await limiter.admit(specs, estimate);
  for (const refusal of admission.refusals) {
    if (refusal.unavailable) {
      if (!refusal.shadow) throw new GatewayError('GW_ERR_LIMITS_UNAVAILABLE', { headers: { 'retry-after': String(refusal.retryAfterSeconds) } });
      trace.noteWarning(`limits_unavailable: ${refusal.reason}`);
      continue;
    }
    if (!refusal.shadow) {
      throw new GatewayError('GW_ERR_POLICY_RATE_LIMITED', {
        message: `Rate limited by ${refusal.reason}; retry in ${refusal.retryAfterSeconds} s.`, headers: { 'retry-after': String(refusal.retryAfterSeconds) },
      });
    }
    trace.noteWarning(`policy_shadow: ${refusal.reason}`);
  }
  return admission;
}

/**
 * DLP over what leaves besides the body: the model, the URL path (percent-escapes
 * decoded), each query name and value, each header forwarded upstream. A match is
 * recorded as its rule and place; the model is recorded masked, and a URL with a
 * match is not logged (the route's pattern is). Block and redact rules refuse the call.
 */
function scanWhatLeaves(request: PipelineRequest, inbound: InboundCall, dlp: DlpSettings, trace: RequestTrace): void {
  const scan = scanPlaces(placesOf(request, inbound), dlp.rules, dlp.cache);
  const inUrl = scan.findings.some((finding) => finding.place === 'path' || finding.place === 'query');
  trace.noteUrl(inUrl ? 'withheld' : 'clean');
  if (scan.findings.length === 0) return;
  for (const finding of scan.findings) trace.noteDlpFinding(finding.rule, finding.place);
  for (const text of scan.matchedTexts) trace.withholdText(text);
  const model = scan.masked.get('model');
  if (model !== undefined) trace.noteModel(model);
  if (scan.blocked !== null) throw blocked(scan.blocked.rule, scan.blocked.place);
}

function placesOf(request: PipelineRequest, inbound: InboundCall): PlaceText[] {
  const places: PlaceText[] = [];
  if (inbound.model !== null) places.push({ place: 'model', text: inbound.model });
  const target = request.rawPath;
  if (target !== undefined) {
    const queryStart = target.indexOf('?');
    places.push({ place: 'path', text: decodePath(queryStart < 0 ? target : target.slice(0, queryStart)) });
  } else {
    for (const name in request.params) places.push({ place: 'path', text: request.params[name]! });
  }
  for (const [name, value] of withoutGenAiKey(request)) places.push({ place: 'query', text: name }, { place: 'query', text: value });
  const headers = forwardedClientHeaders(request.headers);
  for (const name in headers) places.push({ place: `header:${name}`, text: headers[name]! });
  return places;
}

/**
 * DLP over the parsed body. After a redaction, or when the raw bytes carry a
 * duplicate key the parser folded (last wins; a provider might read the first),
 * the bytes forwarded are the scanned object serialised; else the client's own.
 */
function scanBody(request: PipelineRequest, dlp: DlpSettings, trace: RequestTrace, refuseUnscanned: boolean): void {
  // A JSON body whose top level is a string (`"key AKIA…"`) is text like any other; a number, boolean or null carries none.
  if (typeof request.body !== 'string' && (typeof request.body !== 'object' || request.body === null)) return;
  if (typeof request.body === 'object' && isStream(request.body)) return scanStreamedBody(request, dlp, trace, refuseUnscanned);
  if (Buffer.isBuffer(request.body)) return scanBytesBody(request, request.body, dlp, trace, refuseUnscanned);
  const scan = scanRequestBody(request.body, dlp.rules, dlp.cache);
  request.body = scan.body;
  for (const [ruleId, matches] of Object.entries(scan.counts)) trace.noteDlpFinding(ruleId, 'body', matches);
  if (scan.binarySkipped > 0) trace.noteWarning(`dlp_binary_skipped: ${scan.binarySkipped}`);
  if (scan.blockedBy !== null) throw blocked(scan.blockedBy);
  if (scan.redacted > 0) trace.noteWarning(`dlp_redacted: ${scan.redacted}`);
  const duplicateKeys = request.rawBody !== null && countRawKeys(request.rawBody) !== scan.objectKeys;
  if (duplicateKeys) trace.noteWarning('dlp_duplicate_keys_folded');
  if (scan.redacted > 0 || duplicateKeys) request.rawBody = Buffer.from(JSON.stringify(request.body));
  // Either the client's bytes matched the parsed key count or they were replaced by the serialised object.
  request.rawKeysUnique = request.rawBody !== null;
}

/** A small body that is not JSON, read whole: scanned as text when it is text. */
function scanBytesBody(request: PipelineRequest, bytes: Buffer, dlp: DlpSettings, trace: RequestTrace, refuseUnscanned: boolean): void {
  if (!isUtf8(bytes)) {
    trace.noteData('unscanned', [`body: ${contentTypeOf(request) || 'no content type'}`]);
    if (refuseUnscanned) throw new GatewayError('GW_ERR_DLP_UNSCANNED', { message: 'This body is binary, which DLP cannot read; setting unscanned_uploads is refuse.' });
    return;
  }
  const scan = scanPlainText(bytes.toString('utf8'), dlp.rules);
  for (const [ruleId, matches] of Object.entries(scan.counts)) trace.noteDlpFinding(ruleId, 'body', matches);
  if (scan.blockedBy !== null) throw blocked(scan.blockedBy);
  if (scan.redactedText !== null) {
    trace.noteWarning(`dlp_redacted: ${scan.redacted}`);
    request.rawBody = Buffer.from(scan.redactedText);
    request.body = request.rawBody;
  }
}

/** An upload streamed through: read as it passes, each chunk released once scanned (scan-upload.ts). */
function scanStreamedBody(request: PipelineRequest, dlp: DlpSettings, trace: RequestTrace, refuseUnscanned: boolean): void {
  const upload = scanUpload(request.body as Readable, { contentType: contentTypeOf(request), rules: dlp.rules, refuseUnscanned }, trace);
  request.body = upload.body;
  request.bodyRefusal = upload.refusal;
}

function contentTypeOf(request: PipelineRequest): string {
  return headerOf(request, 'content-type') ?? '';
}

const PLACE_NAMES: Record<string, string> = { body: 'request', model: 'model name', path: 'URL path', query: 'query string' };

function blocked(ruleId: string, place = 'body'): GatewayError {
  const where = PLACE_NAMES[place] ?? (place.startsWith('header:') ? `header ${place.slice('header:'.length)}` : place);
  return new GatewayError('GW_ERR_DLP_BLOCKED', {
    message: `Blocked by DLP rule "${ruleId}": the ${where} carries what looks like ${ruleId.replace(/_/g, ' ')}. The matched text is not shown; remove it or ask an admin (gw dlp).`,
  });
}

function isStream(value: object): boolean {
  return typeof (value as { pipe?: unknown }).pipe === 'function';
}

function headerOf(request: PipelineRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The output cap, whatever the dialect names it. */
function readMaxTokens(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const config = record.generationConfig as Record<string, unknown> | undefined;
  for (const value of [record.max_tokens, record.max_completion_tokens, record.max_output_tokens, config?.maxOutputTokens]) {
    if (typeof value === 'number') return value;
  }
  return null;
}

/**
 * Stage 4 for a route whose messages name no model (the MCP endpoint, src/mcp): the same
 * policies, operation check and rate limits; the DLP rules are resolved and handed back
 * for the route to apply to each message it understands (tool arguments and results).
 */
/**
 * `limits: false` (telemetry, src/server/telemetry-routes.ts): policy and DLP apply but the call is not
 * counted against rate limits, so a client's telemetry never uses up the budget of its model calls.
 */
export async function governOperation(request: PipelineRequest, operation: string, services: GatewayServices, trace: RequestTrace, options: { limits?: boolean } = {}): Promise<Governed> {
  const state = services.state.snapshot();
  const governance = governanceOf(services);
  const { team, keyId } = request.identity;
  const policies = policiesFor(state.policies ?? [], team, keyId);
  for (const refusal of evaluateAccess(policies, { model: null, operation, maxTokens: null })) {
    if (!refusal.shadow) throw new GatewayError('GW_ERR_POLICY_DENIED', { message: `Refused by ${refusal.reason}.` });
    trace.noteWarning(`policy_shadow: ${refusal.reason}`);
  }
  const dlp = governance.dlp.resolve(state.dlp ?? [], team, keyId);
  if (options.limits === false) return { policies, dlp, directKey: null, settle: () => undefined };
  const admission = await admitLimits(governance.limiter, policies, request, trace);
  return { policies, dlp, directKey: null, settle: () => admission.settle(undefined) };
}

/** The caller's DLP rules as governRequest resolves them (the same cached settings), for what the record stage checks: the call's lineage. */
export function callerDlp(services: GatewayServices, team: string, keyId: string | null): DlpSettings {
  return governanceOf(services).dlp.resolve(services.state.snapshot().dlp ?? [], team, keyId);
}
