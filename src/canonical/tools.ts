// Tools as the canonical request carries them. `parameters` is a JSON Schema object
// as the client sent it; each dialect's encoder cleans it for its provider (Gemini
// rejects $schema, additionalProperties and others).

export interface ToolDefinition {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict?: boolean;
}

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  /** The model must call some tool (OpenAI "required", Anthropic "any", Gemini mode ANY). */
  | { type: 'required' }
  | { type: 'tool'; name: string };
