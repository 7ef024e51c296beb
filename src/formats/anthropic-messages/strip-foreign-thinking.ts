// Same format (Anthropic client → Anthropic provider) forwards the client's bytes. A session that
// crossed to another dialect earlier holds thinking blocks whose `signature` is a gw carrier
// (shared/foreign-thinking-signature.ts), never an Anthropic signature: sent on, Anthropic refuses
// the whole turn (`Invalid signature in thinking block`). Those blocks are dropped, and counted;
// every other byte of the body stays the client's unless one is found.
import type { TranslationWarning } from '../../canonical/codec.js';
import { FOREIGN_SIGNATURE_MARK, unwrapForeignSignature } from '../shared/foreign-thinking-signature.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCarriedThinking(block: unknown): boolean {
  return isObject(block) && block.type === 'thinking' && typeof block.signature === 'string' && unwrapForeignSignature(block.signature) !== null;
}

/**
 * The body without gw-carried thinking, or null when there is none (the common case, decided by
 * one byte search of the raw body, so the client's bytes go out untouched).
 */
export function stripForeignThinking(raw: Buffer, body: JsonObject): { body: JsonObject; warnings: TranslationWarning[] } | null {
  if (raw.indexOf(FOREIGN_SIGNATURE_MARK) < 0 || !Array.isArray(body.messages)) return null;
  const warnings: TranslationWarning[] = [];
  const messages = body.messages.map((message: unknown, index) => {
    if (!isObject(message) || !Array.isArray(message.content) || !message.content.some(isCarriedThinking)) return message;
    const content = message.content.filter((block: unknown) => !isCarriedThinking(block));
    warnings.push({ code: 'dropped:reasoning', detail: `messages[${index}]: thinking from another provider has no Anthropic signature` });
    return { ...message, content };
  });
  return warnings.length === 0 ? null : { body: { ...body, messages }, warnings };
}
