// One turn through gw with each official SDK, reduced to what a user sees: the
// text, and the tool calls with their parsed arguments. Streaming and non-streaming.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { loadSdks } from '../../support/compat-clients.js';

// The pinned SDKs, or the ones GW_COMPAT_CLIENTS_DIR names (npm run compat:latest).
const sdk = await loadSdks();

export type ClientDialect = 'openai-chat' | 'openai-responses' | 'anthropic' | 'genai';

export interface Turn {
  text: string;
  toolCalls: Array<{ name: string; arguments: unknown }>;
}

export interface TurnOptions {
  gwUrl: string;
  key: string;
  model: string;
  prompt: string;
  stream: boolean;
  tools: boolean;
}

const TOOL = {
  name: 'lookup',
  description: 'Looks a word up.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#' },
};

export async function runTurn(dialect: ClientDialect, options: TurnOptions): Promise<Turn> {
  switch (dialect) {
    case 'openai-chat': return runOpenAiChat(options);
    case 'openai-responses': return runOpenAiResponses(options);
    case 'anthropic': return runAnthropic(options);
    default: return runGenAi(options);
  }
}

async function runOpenAiChat(options: TurnOptions): Promise<Turn> {
  const client = new sdk.OpenAI({ apiKey: options.key, baseURL: `${options.gwUrl}/v1`, maxRetries: 0 });
  const tools = options.tools ? [{ type: 'function' as const, function: TOOL }] : undefined;
  const messages = [{ role: 'user' as const, content: options.prompt }];
  if (!options.stream) {
    const completion = await client.chat.completions.create({ model: options.model, messages, tools });
    const message = completion.choices[0]!.message;
    return {
      text: message.content ?? '',
      toolCalls: (message.tool_calls ?? []).map((call) => ({ name: call.type === 'function' ? call.function.name : '', arguments: call.type === 'function' ? JSON.parse(call.function.arguments) : null })),
    };
  }
  const stream = await client.chat.completions.create({ model: options.model, messages, tools, stream: true });
  let text = '';
  const calls = new Map<number, { name: string; arguments: string }>();
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    text += delta?.content ?? '';
    for (const call of delta?.tool_calls ?? []) {
      const entry = calls.get(call.index) ?? { name: '', arguments: '' };
      entry.name += call.function?.name ?? '';
      entry.arguments += call.function?.arguments ?? '';
      calls.set(call.index, entry);
    }
  }
  return { text, toolCalls: [...calls.values()].map((call) => ({ name: call.name, arguments: JSON.parse(call.arguments) })) };
}

async function runOpenAiResponses(options: TurnOptions): Promise<Turn> {
  const client = new sdk.OpenAI({ apiKey: options.key, baseURL: `${options.gwUrl}/v1`, maxRetries: 0 });
  const tools = options.tools ? [{ type: 'function' as const, name: TOOL.name, description: TOOL.description, parameters: TOOL.parameters, strict: false }] : undefined;
  const request = { model: options.model, input: options.prompt, tools };
  const response = options.stream
    ? await (async () => {
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of await client.responses.create({ ...request, stream: true })) {
        if (event.type === 'response.completed') completed = event.response;
      }
      if (!completed) throw new Error('the stream ended without response.completed');
      return completed;
    })()
    : await client.responses.create(request);
  const toolCalls = response.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, arguments: JSON.parse(item.arguments) }] : []));
  // output_text is the SDK's convenience on create(); a streamed response.completed carries the items only.
  const text = response.output.flatMap((item) => (item.type === 'message' ? item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : [])).join('');
  return { text, toolCalls };
}

async function runAnthropic(options: TurnOptions): Promise<Turn> {
  const client = new sdk.Anthropic({ apiKey: options.key, baseURL: options.gwUrl, maxRetries: 0 });
  const tools = options.tools ? [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters as Anthropic.Tool.InputSchema }] : undefined;
  const request = { model: options.model, max_tokens: 256, messages: [{ role: 'user' as const, content: options.prompt }], tools };
  const message = options.stream ? await client.messages.stream(request).finalMessage() : await client.messages.create(request);
  return {
    text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
    toolCalls: message.content.flatMap((block) => (block.type === 'tool_use' ? [{ name: block.name, arguments: block.input }] : [])),
  };
}

async function runGenAi(options: TurnOptions): Promise<Turn> {
  const ai = new sdk.GoogleGenAI({ apiKey: options.key, httpOptions: { baseUrl: `${options.gwUrl}/genai` } });
  const config = options.tools ? { tools: [{ functionDeclarations: [{ name: TOOL.name, description: TOOL.description, parametersJsonSchema: TOOL.parameters }] }] } : undefined;
  const request = { model: options.model, contents: options.prompt, config };
  if (!options.stream) {
    const response = await ai.models.generateContent(request);
    return { text: response.text ?? '', toolCalls: (response.functionCalls ?? []).map((call) => ({ name: call.name ?? '', arguments: call.args })) };
  }
  let text = '';
  const toolCalls: Turn['toolCalls'] = [];
  for await (const chunk of await ai.models.generateContentStream(request)) {
    text += chunk.text ?? '';
    for (const call of chunk.functionCalls ?? []) toolCalls.push({ name: call.name ?? '', arguments: call.args });
  }
  return { text, toolCalls };
}

/**
 * A tool round trip as an application runs it: the model calls `lookup`, the client answers with
 * the result in its own dialect, and the model's next answer is text. Returns that final text.
 */
export async function runToolRoundTrip(dialect: ClientDialect, options: Omit<TurnOptions, 'stream' | 'tools'>): Promise<string> {
  switch (dialect) {
    case 'openai-chat': {
      const client = new sdk.OpenAI({ apiKey: options.key, baseURL: `${options.gwUrl}/v1`, maxRetries: 0 });
      const tools = [{ type: 'function' as const, function: TOOL }];
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: options.prompt }];
      const first = (await client.chat.completions.create({ model: options.model, messages, tools })).choices[0]!.message;
      const call = first.tool_calls?.[0];
      if (call?.type !== 'function') throw new Error('no tool call');
      messages.push(first, { role: 'tool', tool_call_id: call.id, content: 'lookup result 42' });
      return (await client.chat.completions.create({ model: options.model, messages, tools })).choices[0]!.message.content ?? '';
    }
    case 'openai-responses': {
      const client = new sdk.OpenAI({ apiKey: options.key, baseURL: `${options.gwUrl}/v1`, maxRetries: 0 });
      const tools = [{ type: 'function' as const, name: TOOL.name, description: TOOL.description, parameters: TOOL.parameters, strict: false }];
      const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: options.prompt }];
      const first = await client.responses.create({ model: options.model, input, tools, store: false });
      const call = first.output.find((item) => item.type === 'function_call');
      if (call?.type !== 'function_call') throw new Error('no tool call');
      input.push({ type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments }, { type: 'function_call_output', call_id: call.call_id, output: 'lookup result 42' });
      return (await client.responses.create({ model: options.model, input, tools, store: false })).output_text;
    }
    case 'anthropic': {
      const client = new sdk.Anthropic({ apiKey: options.key, baseURL: options.gwUrl, maxRetries: 0 });
      const tools = [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters as Anthropic.Tool.InputSchema }];
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: options.prompt }];
      const first = await client.messages.create({ model: options.model, max_tokens: 256, messages, tools });
      const use = first.content.find((block) => block.type === 'tool_use');
      if (use?.type !== 'tool_use') throw new Error('no tool call');
      messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'lookup result 42' }] });
      const last = await client.messages.create({ model: options.model, max_tokens: 256, messages, tools });
      return last.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    }
    default: {
      const ai = new sdk.GoogleGenAI({ apiKey: options.key, httpOptions: { baseUrl: `${options.gwUrl}/genai` } });
      const config = { tools: [{ functionDeclarations: [{ name: TOOL.name, description: TOOL.description, parametersJsonSchema: TOOL.parameters }] }] };
      const contents = [{ role: 'user', parts: [{ text: options.prompt }] }];
      const first = await ai.models.generateContent({ model: options.model, contents, config });
      const call = first.functionCalls?.[0];
      if (!call) throw new Error('no tool call');
      const next = [...contents, { role: 'model', parts: [{ functionCall: call }] }, { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { result: 'lookup result 42' } } }] }];
      return (await ai.models.generateContent({ model: options.model, contents: next, config })).text ?? '';
    }
  }
}
