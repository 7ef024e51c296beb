// Bedrock Guardrails' ApplyGuardrail (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ApplyGuardrail.html):
// POST /guardrail/{id}/version/{version}/apply {source: INPUT|OUTPUT, content: [{text: {text}}]},
// signed with SigV4 (service `bedrock`, the same signer as the Bedrock provider) →
// {action: NONE|GUARDRAIL_INTERVENED, outputs: [{text}], assessments}. NONE allows. An intervention
// whose assessments show a BLOCKED action blocks; one that only masked (ANONYMIZED) rewrites the
// texts with Bedrock's outputs, one per text sent. The credential is
// `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`; without one, gw's AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) are used, as the AWS SDKs read them.
import { signBedrockRequest, type AwsCredentials } from '../providers/bedrock/sign-request.js';
import { isPlainObject } from '../is-plain-object.js';
import { joinUrl, shortReason, type GuardrailKind, type GuardrailTarget } from './guardrail-kind.js';
import { UnreadableVerdict, type GuardInput, type GuardrailAnswer, type GuardrailCall, type SendGuardrailCall, type Verdict } from './guardrail-verdict.js';

export function buildApplyGuardrailRequest(target: GuardrailTarget, input: GuardInput): GuardrailCall {
  const options = target.config.options ?? {};
  const id = encodeURIComponent(options.guardrail_id ?? '');
  const version = encodeURIComponent(options.version ?? 'DRAFT');
  const body = { source: input.phase === 'pre' ? 'INPUT' : 'OUTPUT', content: input.texts.map((text) => ({ text: { text: text.text } })) };
  return { url: joinUrl(target.config.url, `/guardrail/${id}/version/${version}/apply`), headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

export function readApplyGuardrailVerdict(answer: GuardrailAnswer, input: GuardInput): Verdict {
  if (answer.status < 200 || answer.status >= 300) throw new UnreadableVerdict(`status ${answer.status}`);
  const json = answer.json;
  if (!isPlainObject(json) || (json.action !== 'NONE' && json.action !== 'GUARDRAIL_INTERVENED')) throw new UnreadableVerdict('action is not NONE or GUARDRAIL_INTERVENED');
  if (json.action === 'NONE') return { action: 'allow' };
  const outputs = Array.isArray(json.outputs) ? json.outputs : [];
  const texts = outputs.map((output) => (isPlainObject(output) && typeof output.text === 'string' ? output.text : null));
  if (blocks(json.assessments) || texts.length !== input.texts.length || texts.includes(null)) {
    const reason = typeof json.actionReason === 'string' && json.actionReason !== '' ? json.actionReason : 'intervened';
    return { action: 'block', reason: shortReason(`Bedrock guardrail: ${reason}`) };
  }
  return { action: 'rewrite', texts };
}

/** Whether any policy of any assessment took the BLOCKED action (masking alone is ANONYMIZED). */
function blocks(assessments: unknown): boolean {
  const found: unknown[] = [assessments];
  // The assessments nest a few levels (policy → filters/entities → action): walked, bounded.
  for (let index = 0; index < found.length && index < 10_000; index += 1) {
    const node: unknown = found[index];
    if (Array.isArray(node)) {
      const items: readonly unknown[] = node;
      found.push(...items);
    }
    else if (isPlainObject(node)) {
      if (node.action === 'BLOCKED') return true;
      found.push(...Object.values(node));
    }
  }
  return false;
}

function credentialsOf(target: GuardrailTarget): AwsCredentials {
  if (target.credential !== null) {
    const [accessKeyId = '', secretAccessKey = '', sessionToken] = target.credential.split(':');
    if (accessKeyId === '' || secretAccessKey === '') throw new UnreadableVerdict('the credential is not ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]');
    return { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) };
  }
  const accessKeyId = target.env.AWS_ACCESS_KEY_ID ?? '';
  const secretAccessKey = target.env.AWS_SECRET_ACCESS_KEY ?? '';
  if (accessKeyId === '' || secretAccessKey === '') throw new UnreadableVerdict('no AWS credentials (a --credential, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)');
  const sessionToken = target.env.AWS_SESSION_TOKEN;
  return { accessKeyId, secretAccessKey, ...(sessionToken === undefined || sessionToken === '' ? {} : { sessionToken }) };
}

async function judgeBedrock(target: GuardrailTarget, input: GuardInput, send: SendGuardrailCall): Promise<Verdict> {
  const call = buildApplyGuardrailRequest(target, input);
  const region = target.config.options?.region ?? 'us-east-1';
  const signed = await signBedrockRequest({ url: call.url, method: 'POST', headers: call.headers, body: call.body, region, credentials: credentialsOf(target) });
  // undici sets host itself (and refuses one given).
  delete signed.host;
  return readApplyGuardrailVerdict(await send({ ...call, headers: signed }), input);
}

export const bedrockGuardrail: GuardrailKind = { judge: judgeBedrock };
