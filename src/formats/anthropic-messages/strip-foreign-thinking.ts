// Same format (Anthropic client → Anthropic provider) forwards the client's bytes. A session that
// crossed to another dialect earlier holds thinking blocks whose `signature` is a gw carrier
// (shared/foreign-thinking-signature.ts), never an Anthropic signature: sent on, Anthropic refuses
// the whole turn (`Invalid signature in thinking block`). Those blocks are dropped, and counted;
// every other byte of the body stays the client's unless one is found.
import type { TranslationWarning } from '../../canonical/codec.js';
import { unwrapForeignSignature } from '../shared/foreign-thinking-signature.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCarriedThinking(block: unknown): boolean {
  return isObject(block) && block.type === 'thinking' && typeof block.signature === 'string' && unwrapForeignSignature(block.signature) !== null;
}

/**
 * The body without gw-carried thinking, or null when there is none (the common case: the
 * client's bytes go out untouched). Decided on the parsed body, whose thinking blocks are few
 * and cheap to check; a byte search of the raw body for the carrier mark cost ~130 µs on a
 * 212 KB Claude Code request, about a tenth of gw's whole cost for it.
 */
export function stripForeignThinking(body: JsonObject): { body: JsonObject; warnings: TranslationWarning[] } | null {
  if (!Array.isArray(body.messages) || !body.messages.some(holdsCarriedThinking)) return null;
  const warnings: TranslationWarning[] = [];
  const messages = body.messages.map((message: unknown, index) => {
    if (!holdsCarriedThinking(message)) return message;
    const content = (message as { content: unknown[] }).content.filter((block: unknown) => !isCarriedThinking(block));
    warnings.push({ code: 'dropped:reasoning', detail: `messages[${index}]: thinking from another provider has no Anthropic signature` });
    return { ...(message as JsonObject), content };
  });
  return { body: { ...body, messages }, warnings };
}

function holdsCarriedThinking(message: unknown): boolean {
  return isObject(message) && Array.isArray(message.content) && message.content.some(isCarriedThinking);
}
