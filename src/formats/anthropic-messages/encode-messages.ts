// Canonical system parts and messages → Anthropic `system` and `messages`.
// Tool results ride in a user turn; a tool message followed by a user message share one turn,
// as Anthropic expects tool_result blocks first in the user turn after the tool_use.
// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks
import type { TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart, Message, UserPart } from '../../canonical/request.js';
import {
  encodeDocumentBlock, encodeImageBlock, encodeReasoningBlock, encodeTextBlock, encodeToolResultBlock, encodeToolUseBlock,
} from './encode-content.js';

type Block = Record<string, unknown>;
interface WireMessage { role: 'user' | 'assistant'; content: Block[] }

export function encodeAnthropicMessages(messages: Message[], warnings: TranslationWarning[]): WireMessage[] {
  const wire: WireMessage[] = [];
  let lastWasToolTurn = false;
  for (const message of messages) {
    const last = wire[wire.length - 1];
    if (message.role === 'assistant') {
      wire.push({ role: 'assistant', content: encodeAssistant(message.content, warnings) });
      lastWasToolTurn = false;
      continue;
    }
    const blocks = message.role === 'tool' ? message.content.map(encodeToolResultBlock) : message.content.map(encodeUserPart);
    if (lastWasToolTurn && last?.role === 'user') last.content.push(...blocks);
    else wire.push({ role: 'user', content: blocks });
    lastWasToolTurn = message.role === 'tool';
  }
  return wire;
}

function encodeUserPart(part: UserPart): Block {
  if (part.type === 'text') return encodeTextBlock(part);
  return part.type === 'image' ? encodeImageBlock(part) : encodeDocumentBlock(part);
}

function encodeAssistant(parts: AssistantPart[], warnings: TranslationWarning[]): Block[] {
  const blocks: Block[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push(encodeTextBlock(part)); // Anthropic refuses empty text blocks
    } else if (part.type === 'tool-call') blocks.push(encodeToolUseBlock(part, warnings));
    else {
      const block = encodeReasoningBlock(part, warnings);
      if (block) blocks.push(block);
    }
  }
  return blocks;
}
