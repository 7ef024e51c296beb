// OpenAI-compatible servers gw knows by name. A new one is one entry here: its
// default base URL (including the version segment), the variable that holds
// its key, and `<NAME>_BASE_URL` to override the URL (a URL alone configures a
// keyless server, DESIGN.md "Formats and providers").

export interface OpenAiCompatiblePreset {
  /** Instance name when configured from the environment, and the `--preset` value. */
  name: string;
  /** Shown by `gw providers list`. */
  label: string;
  defaultBaseUrl: string;
  /** Variable holding the API key; optional for local servers that may run without one. */
  apiKeyEnv: string;
  baseUrlEnv: string;
  /** A local server: usable without a key. */
  keyless: boolean;
  /** The provider's document for its OpenAI-compatible API. */
  docs: string;
}

function preset(name: string, label: string, defaultBaseUrl: string, keyless: boolean, docs: string): OpenAiCompatiblePreset {
  const prefix = name.toUpperCase();
  return { name, label, defaultBaseUrl, apiKeyEnv: `${prefix}_API_KEY`, baseUrlEnv: `${prefix}_BASE_URL`, keyless, docs };
}

export const OPENAI_COMPATIBLE_PRESETS: readonly OpenAiCompatiblePreset[] = [
  preset('ollama', 'Ollama', 'http://localhost:11434/v1', true, 'https://github.com/ollama/ollama/blob/main/docs/openai.md'),
  preset('vllm', 'vLLM', 'http://localhost:8000/v1', true, 'https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html'),
  // llama-server defaults to port 8080, which is gw's own port: run it with --port 8081.
  preset('llamacpp', 'llama.cpp server', 'http://localhost:8081/v1', true, 'https://github.com/ggml-org/llama.cpp/tree/master/tools/server'),
  preset('groq', 'Groq', 'https://api.groq.com/openai/v1', false, 'https://console.groq.com/docs/openai'),
  preset('mistral', 'Mistral', 'https://api.mistral.ai/v1', false, 'https://docs.mistral.ai/api/'),
  preset('deepseek', 'DeepSeek', 'https://api.deepseek.com/v1', false, 'https://api-docs.deepseek.com/'),
  preset('openrouter', 'OpenRouter', 'https://openrouter.ai/api/v1', false, 'https://openrouter.ai/docs/api-reference/overview'),
  preset('together', 'Together AI', 'https://api.together.xyz/v1', false, 'https://docs.together.ai/docs/openai-api-compatibility'),
  preset('fireworks', 'Fireworks AI', 'https://api.fireworks.ai/inference/v1', false, 'https://docs.fireworks.ai/tools-sdks/openai-compatibility'),
  preset('xai', 'xAI', 'https://api.x.ai/v1', false, 'https://docs.x.ai/docs/api-reference'),
];

export function findPreset(name: string): OpenAiCompatiblePreset | null {
  return OPENAI_COMPATIBLE_PRESETS.find((entry) => entry.name === name) ?? null;
}
