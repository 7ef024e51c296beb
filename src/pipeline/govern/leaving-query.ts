// The client's query as it may leave for a provider. A GenAI client's own `?key=` is its
// credential (Google's curl examples put the key there): it leaves for no provider, whatever
// the target's dialect, and so it is not among what DLP scans as leaving (govern-request.ts).
import type { PipelineRequest } from '../pipeline-types.js';

function carriesGenAiKey(request: PipelineRequest): boolean {
  return request.route.dialect === 'google' && request.query.has('key');
}

export function withoutGenAiKey(request: PipelineRequest): URLSearchParams {
  if (!carriesGenAiKey(request)) return request.query;
  const copy = new URLSearchParams(request.query);
  copy.delete('key');
  return copy;
}
