// Every guardrail kind by its name in `gw guardrails add --kind`: the only file that imports them all.
import type { GuardrailKindName } from '../state/guardrails.js';
import { bedrockGuardrail } from './bedrock-guardrail.js';
import type { GuardrailKind } from './guardrail-kind.js';
import { httpGuardrail } from './http-guardrail.js';
import { lakeraGuardrail } from './lakera-guardrail.js';
import { openAiModerationGuardrail } from './openai-moderation-guardrail.js';
import { presidioGuardrail } from './presidio-guardrail.js';

export const GUARDRAIL_KIND_TABLE: Readonly<Record<GuardrailKindName, GuardrailKind>> = {
  http: httpGuardrail,
  presidio: presidioGuardrail,
  'openai-moderation': openAiModerationGuardrail,
  lakera: lakeraGuardrail,
  bedrock: bedrockGuardrail,
};
