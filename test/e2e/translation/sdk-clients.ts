// One turn through gw with each official SDK, reduced to what a user sees: the
// text, and the tool calls with their parsed arguments. Streaming and non-streaming.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';

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
  const client = new OpenAI({ apiKey: options.key, baseURL: `${options.gwUrl}/v1`, maxRetries: 0 });
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
  const client = new OpenAI({ apiKey: options.key, baseURL: `${options.gwUrl}/v1`, maxRetries: 0 });
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
  const client = new Anthropic({ apiKey: options.key, baseURL: options.gwUrl, maxRetries: 0 });
  const tools = options.tools ? [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters as Anthropic.Tool.InputSchema }] : undefined;
  const request = { model: options.model, max_tokens: 256, messages: [{ role: 'user' as const, content: options.prompt }], tools };
  const message = options.stream ? await client.messages.stream(request).finalMessage() : await client.messages.create(request);
  return {
    text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
    toolCalls: message.content.flatMap((block) => (block.type === 'tool_use' ? [{ name: block.name, arguments: block.input }] : [])),
  };
}

async function runGenAi(options: TurnOptions): Promise<Turn> {
  const ai = new GoogleGenAI({ apiKey: options.key, httpOptions: { baseUrl: `${options.gwUrl}/genai` } });
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
