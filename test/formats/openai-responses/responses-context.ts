// The codec context a Responses client's answer is encoded with: the client's own request
// decoded (what only its dialect knows, namespaces and custom tools, comes back from it),
// stable ids and time.
import type { CodecContext } from '../../../src/canonical/codec.js';
import { openAiResponsesCodec } from '../../../src/formats/openai-responses/index.js';

export function responsesContext(body: { model: string }): CodecContext {
  let id = 0;
  const request = openAiResponsesCodec.decodeRequest(body, { model: body.model, stream: false }).value;
  return { ids: () => `id${(id += 1)}`, now: () => 1_800_000_000, request };
}
