// The canonical request: what every dialect decodes into and encodes from. A small
// spec (CONVENTIONS.md, house rule 4): discriminated unions, no field until three
// providers need it; what only one dialect has rides in `extensions` under the
// dialect's name, and is dropped (with a warning) when another dialect is the target.
// Imports nothing from src/ but its own folder.
import type { ToolDefinition, ToolChoice } from './tools.js';

export interface CacheControl {
  type: 'ephemeral';
  ttl?: string;
}

export interface TextPart {
  type: 'text';
  text: string;
  cacheControl?: CacheControl;
}

export type MediaSource =
  | { type: 'url'; url: string }
  | { type: 'base64'; mediaType: string; data: string }
  /** A provider-side file id (OpenAI file_id, GenAI fileUri). */
  | { type: 'file'; fileId: string; mediaType?: string };

export interface ImagePart {
  type: 'image';
  source: MediaSource;
  cacheControl?: CacheControl;
}

export interface DocumentPart {
  type: 'document';
  source: MediaSource;
  title?: string;
  cacheControl?: CacheControl;
}

export interface ToolCallPart {
  type: 'tool-call';
  id: string;
  name: string;
  /** JSON text of the arguments, exactly as the model produced it. */
  arguments: string;
}

export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  /** Gemini matches results by name, not id; kept when known. */
  toolName?: string;
  content: Array<TextPart | ImagePart>;
  isError?: boolean;
  cacheControl?: CacheControl;
}

/** Thinking. `signature` (Anthropic), `encrypted` (OpenAI Responses encrypted_content) and
 *  `redacted` (Anthropic redacted_thinking data) must travel back unchanged on the next turn. */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  encrypted?: string;
  redacted?: string;
  /** The dialect that produced the opaque fields: they are only valid when sent back to it. */
  origin?: 'openai' | 'anthropic' | 'google';
}

export type UserPart = TextPart | ImagePart | DocumentPart;
export type AssistantPart = TextPart | ToolCallPart | ReasoningPart;

export type Message =
  | { role: 'user'; content: UserPart[] }
  | { role: 'assistant'; content: AssistantPart[] }
  | { role: 'tool'; content: ToolResultPart[] };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | { type: 'json-schema'; name: string; schema: Record<string, unknown>; strict?: boolean };

export interface ReasoningConfig {
  /** OpenAI reasoning_effort / Responses reasoning.effort / Anthropic output_config.effort. */
  effort?: 'minimal' | 'low' | 'medium' | 'high' | 'max';
  /** Anthropic thinking.budget_tokens / Gemini thinkingConfig.thinkingBudget. */
  budgetTokens?: number;
  /** Whether thinking is returned to the client (Anthropic thinking enabled / Gemini includeThoughts / Responses summary). */
  include?: boolean;
}

export interface CanonicalRequest {
  model: string;
  /** System and developer instructions, in order (OpenAI `developer` messages land here too). */
  system: TextPart[];
  messages: Message[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  /** false forbids several tool calls in one turn (OpenAI parallel_tool_calls, Anthropic tool_choice.disable_parallel_tool_use). */
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningConfig;
  stream: boolean;
  /** An end-user id for abuse tracking (OpenAI `user`, Anthropic metadata.user_id). */
  user?: string;
  /** Dialect-only fields, by dialect name (e.g. { openai: { logprobs: true } }). */
  extensions: Record<string, Record<string, unknown>>;
}
