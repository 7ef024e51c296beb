// Completions `usage` is OpenAI's shape (src/formats/shared/openai-usage.ts); this dialect's
// canonical form leaves unknown counts out rather than undefined.
// https://platform.openai.com/docs/api-reference/completions/object#completions/object-usage
import type { Usage } from '../../canonical/usage.js';
import { mapOpenAiShapedUsage } from '../shared/openai-usage.js';

export { encodeOpenAiShapedUsage as toCompletionsUsage } from '../shared/openai-usage.js';

export function mapCompletionsUsage(usage: unknown): Usage | undefined {
  const mapped = mapOpenAiShapedUsage(usage);
  return mapped && Object.fromEntries(Object.entries(mapped).filter(([, value]) => value !== undefined));
}
