// Stage 4 continued, once targets are planned: the model lists (allow_models, deny_models) for
// the models a call runs besides the one it was decoded with. A passthrough call names its model
// in its path or body, in its provider's own words (read-passthrough-model.ts, read-form-model.ts);
// a batch runs the models of its lines: inline for an Anthropic message batch, in its input
// file for an OpenAI batch (read-batch-file.ts); a normal route's form (a transcription) in a
// field gw streams through (read-form-model.ts). Each model is checked provider-qualified, as a
// normal route's client names it (`openai/gpt-4o` through the OpenAI passthrough), and under its
// bare name too, by the same policy function the normal routes use (src/policy). Where a model
// list applies, a model gw cannot read is refused rather than guessed: GW_ERR_POLICY_MODEL_UNREADABLE.
import type { Readable } from 'node:stream';
import { GatewayError } from '../../errors.js';
import { evaluateModelAccess, hasModelList, type PolicyRefusal } from '../../policy/evaluate-policy.js';
import type { PolicyRecord } from '../../policy/policy-record.js';
import type { GatewayServices } from '../gateway-services.js';
import type { Governed } from '../govern/govern-request.js';
import type { PipelineRequest } from '../pipeline-types.js';
import type { TargetAttempt } from './plan-targets.js';
import { batchFileModels } from './read-batch-file.js';
import { modelAliasesFor } from '../govern/qualify-model.js';
import { readFormModel, tapFormModel } from './read-form-model.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import { readBodyModels, readPathModel, runsNoModel, type PassthroughModels } from './read-passthrough-model.js';
import type { RequestTrace } from '../request-trace.js';
import { isPlainObject } from '../../is-plain-object.js';

/** A passthrough through a gateway provider (another gw) is qualified as its family's provider. */
const FAMILY_PROVIDER: Readonly<Record<string, string>> = { openai: 'openai', anthropic: 'anthropic', google: 'gemini' };

/** Whether a call runs models this stage must read: cheap, so other calls pay nothing. */
export function runsModelsToGovern(call: InboundCall, request: PipelineRequest): boolean {
  if (call.operation === 'passthrough') return true;
  if (request.method !== 'POST') return false;
  return call.operation === 'batches' || call.operation === 'messages.batches' || (call.resource?.usesModel === true && call.model === null && isForm(request));
}

export async function governCallModels(request: PipelineRequest, call: InboundCall, attempts: readonly TargetAttempt[], governed: Governed,
  services: GatewayServices, trace: RequestTrace): Promise<void> {
  const provider = attempts[0]?.target.provider;
  const qualifier = provider === undefined || provider.kind === 'gateway' ? FAMILY_PROVIDER[call.dialect] ?? call.dialect : provider.name;
  const check = new ModelCheck(governed.policies, qualifier, trace);
  if (call.operation === 'passthrough') return governPassthrough(request, call, check, services);
  if (call.operation === 'batches') return checkBatchFile(request.body, check, services);
  if (call.operation === 'messages.batches') return checkMessageBatch(request.body, check);
  return governForm(request, check, services);
}

/** An Anthropic message batch: each request's `params.model`. */
function checkMessageBatch(body: unknown, check: ModelCheck): void {
  const found = readBodyModels(body);
  check.unreadable(found.unreadable === null ? null : `the message batch: ${found.unreadable}`);
  for (const model of found.models) check.model(model, 'in the message batch');
}

async function governPassthrough(request: PipelineRequest, call: InboundCall, check: ModelCheck, services: GatewayServices): Promise<void> {
  const rest = call.passthroughPath ?? '/';
  // Uploads, cancels, reads and deletes run no model: what their bodies hold is not read for one.
  const runsModel = !runsNoModel(request.method, rest);
  const found = await readPassthroughModels(request, rest, check, runsModel);
  const models = found.models;
  if (models.length > 0) check.trace.noteModel(check.qualify(models[0]!));
  // A streamed upload DLP already cut is refused by DLP: its refusal is the caller's answer.
  if (request.bodyRefusal?.()) return;
  for (const model of models) check.model(model);
  if (!runsModel) return;
  check.unreadable(found.unreadable);
  // An OpenAI batch's models are its input file's.
  if (call.dialect === 'openai' && /\/batches$/.test(rest.split('?')[0]!)) return checkBatchFile(request.body, check, services);
  if (models.length === 0 && found.unreadable === null) check.unnamed();
}

/**
 * The path's model, then the body's. A form's model field is read before anything is forwarded
 * when a model list must judge it; else it is only noted for the record as the form passes.
 */
async function readPassthroughModels(request: PipelineRequest, rest: string, check: ModelCheck, runsModel: boolean): Promise<PassthroughModels> {
  const fromPath = readPathModel(rest);
  let found: PassthroughModels = { models: [], unreadable: null };
  if (!isForm(request)) {
    found = readBodyModels(request.body);
  } else if (runsModel && check.listed) {
    const form = await readFormModel(request.body as Readable, contentTypeOf(request));
    request.body = form.body;
    found = { models: form.model === null ? [] : [form.model], unreadable: form.unreadable };
  } else if (runsModel && fromPath === null) {
    request.body = tapFormModel(request.body as Readable, contentTypeOf(request), (model) => check.trace.noteModel(check.qualify(model)));
  }
  return fromPath === null ? found : { ...found, models: [fromPath, ...found.models] };
}

/**
 * A normal route's form (a transcription, an image edit) names its model in a field gw streams
 * through: under a model list it is read first and matched like a JSON body's model. (A form
 * that names none was refused by allow_models already, govern-request.ts.)
 */
async function governForm(request: PipelineRequest, check: ModelCheck, services: GatewayServices): Promise<void> {
  if (!check.listed) return;
  const form = await readFormModel(request.body as Readable, contentTypeOf(request));
  request.body = form.body;
  if (request.bodyRefusal?.()) return;
  check.unreadable(form.unreadable);
  if (form.model === null) return;
  // Under the name given, qualified by the provider planned to run it, and wherever it resolves.
  const aliases = [check.qualify(form.model), ...(modelAliasesFor(check.policies, form.model, services) ?? [])];
  check.named(form.model, [...new Set(aliases)].filter((name) => name !== form.model));
}

/** A batch created from a file: the models the file's lines run, as gw read them on upload. */
async function checkBatchFile(body: unknown, check: ModelCheck, services: GatewayServices): Promise<void> {
  const fileId = isPlainObject(body) ? body.input_file_id : undefined;
  // No model list, nothing to look up; no file id, nothing the provider will run.
  if (!check.listed || typeof fileId !== 'string' || fileId === '') return;
  const file = await batchFileModels(fileId, services.resourceIds);
  if (file === null) {
    check.unreadable('the batch\'s input file was not uploaded through this gateway, so gw has not seen the models its lines run; upload it through gw (POST /v1/files)');
    return;
  }
  check.unreadable(file.unreadable === null ? null : `the batch's input file: ${file.unreadable}`);
  for (const [model, line] of file.models) check.model(model, `the batch's input file, line ${line}`);
}

/** Refusals as the normal routes make them: enforced ones throw, shadow ones are noted. */
class ModelCheck {
  readonly listed: boolean;

  constructor(readonly policies: readonly PolicyRecord[], private readonly qualifier: string, readonly trace: RequestTrace) {
    this.listed = policies.length > 0 && hasModelList(policies);
  }

  qualify(model: string): string {
    return model.startsWith(`${this.qualifier}/`) ? model : `${this.qualifier}/${model}`;
  }

  /** A model in the provider's own words: checked as `provider/model`, and as it is. */
  model(model: string, where?: string): void {
    const qualified = this.qualify(model);
    this.named(qualified, qualified === model ? [] : [model], where);
  }

  /** A model under the name given and its other names. */
  named(model: string, aliases: readonly string[] | undefined, where?: string): void {
    if (!this.listed) return;
    this.apply(evaluateModelAccess(this.policies, { model, ...(aliases ? { modelAliases: aliases } : {}) }), (reason) =>
      new GatewayError('GW_ERR_POLICY_DENIED', { message: `Refused by ${reason}${where ? ` (${where})` : ''}.` }));
  }

  /** A call that names no model runs the provider's default, which no allow_models list can admit. */
  unnamed(): void {
    if (!this.listed) return;
    this.apply(evaluateModelAccess(this.policies, { model: null, unnamedModel: true }), (reason) => new GatewayError('GW_ERR_POLICY_DENIED', { message: `Refused by ${reason}.` }));
  }

  unreadable(why: string | null): void {
    if (why === null || !this.listed) return;
    const refusals = this.policies.filter((record) => record.allow_models !== undefined || record.deny_models !== undefined).map((record) => ({
      scope: record.scope, shadow: record.mode === 'shadow', reason: `policy ${record.scope}: a model list applies (allow_models or deny_models)`,
    }));
    this.apply(refusals, (reason) => new GatewayError('GW_ERR_POLICY_MODEL_UNREADABLE', {
      message: `gw cannot read the model this call runs (${why}), and ${reason}, so it is refused. Name the model where gw reads it: "model" in a JSON body, or a form's model field before its file.`,
    }));
  }

  private apply(refusals: readonly PolicyRefusal[], toError: (reason: string) => GatewayError): void {
    for (const refusal of refusals) {
      if (!refusal.shadow) throw toError(refusal.reason);
      this.trace.noteWarning(`policy_shadow: ${refusal.reason}`);
    }
  }
}

function contentTypeOf(request: PipelineRequest): string {
  return String(request.headers['content-type'] ?? '');
}

/** A multipart form gw streams through. */
function isForm(request: PipelineRequest): boolean {
  const body = request.body;
  return typeof body === 'object' && body !== null && typeof (body as { pipe?: unknown }).pipe === 'function' && /^multipart\//i.test(contentTypeOf(request));
}
