// The legacy endpoint takes one prompt string, so a conversation is written out as a
// transcript. The template (listed in the README translation table):
//
//   System: <system text>
//
//   User: <user text>
//
//   Assistant: <assistant text>
//
//   Assistant called <tool>(<arguments JSON>)
//
//   Tool result (<tool name or call id>): <result text>
//
//   Assistant:
//
// Blocks are separated by a blank line; the trailing "Assistant:" asks the model to
// continue as the assistant. Images, documents and reasoning cannot be written as text
// and are dropped with a warning.
import type { TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, Message } from '../../canonical/request.js';

/** A lone user message made of text is the prompt as it is: nothing to flatten. */
export function isPlainPrompt(request: CanonicalRequest): boolean {
  const [only] = request.messages;
  return request.system.length === 0 && request.messages.length === 1 && only?.role === 'user'
    && only.content.every((part) => part.type === 'text');
}

export function plainPrompt(request: CanonicalRequest): string {
  const [only] = request.messages;
  return only?.role === 'user' ? only.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n') : '';
}

export function flattenMessages(request: CanonicalRequest, warnings: TranslationWarning[]): string {
  warnings.push({ code: 'mapped:messages-to-prompt', detail: 'the conversation was written into one prompt (see the README template)' });
  const blocks: string[] = [];
  const systemText = request.system.map((part) => part.text).join('\n');
  if (systemText !== '') blocks.push(`System: ${systemText}`);
  for (const message of request.messages) blocks.push(...renderMessage(message, warnings));
  blocks.push('Assistant:');
  return blocks.join('\n\n');
}

function renderMessage(message: Message, warnings: TranslationWarning[]): string[] {
  if (message.role === 'user') {
    const texts: string[] = [];
    for (const part of message.content) {
      if (part.type === 'text') texts.push(part.text);
      else warnings.push({ code: `dropped:${part.type}`, detail: 'the completions prompt is text only' });
    }
    return texts.length > 0 ? [`User: ${texts.join('\n')}`] : [];
  }
  if (message.role === 'tool') {
    warnings.push({ code: 'mapped:tool-result-to-text' });
    return message.content.map((result) => `Tool result (${result.toolName ?? result.toolCallId}): ${resultText(result.content, warnings)}`);
  }
  return renderAssistant(message.content, warnings);
}

function renderAssistant(content: Extract<Message, { role: 'assistant' }>['content'], warnings: TranslationWarning[]): string[] {
  const blocks: string[] = [];
  for (const part of content) {
    if (part.type === 'text') blocks.push(`Assistant: ${part.text}`);
    else if (part.type === 'tool-call') {
      warnings.push({ code: 'mapped:tool-call-to-text' });
      blocks.push(`Assistant called ${part.name}(${part.arguments})`);
    } else warnings.push({ code: 'dropped:reasoning', detail: 'reasoning from an earlier turn cannot be sent in a prompt' });
  }
  return blocks;
}

function resultText(content: Array<{ type: 'text'; text: string } | { type: 'image' }>, warnings: TranslationWarning[]): string {
  const texts: string[] = [];
  for (const part of content) {
    if (part.type === 'text') texts.push(part.text);
    else warnings.push({ code: 'dropped:image', detail: 'an image in a tool result' });
  }
  return texts.join('\n');
}
