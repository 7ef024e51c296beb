// Chat Completions usage is OpenAI's shape (src/formats/shared/openai-usage.ts).
export { encodeOpenAiShapedUsage as encodeOpenAiUsage, mapOpenAiShapedUsage as mapOpenAiUsage } from '../shared/openai-usage.js';
