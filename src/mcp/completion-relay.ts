// completion/complete through gw: the reference names a prompt (SERVER__PROMPT) or a resource
// template (gw-mcp://SERVER/<template>); the same policy as using that prompt or resource
// decides, and the server gets its own names back.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { McpCapability } from '../policy/evaluate-mcp-access.js';
import { reach, refusal, refusedError, upstreamError, type McpCallContext } from './mcp-context.js';
import { SEPARATOR, splitName, splitResourceUri } from './relay-call.js';
import type { RelayHandler } from './relay.js';

type Ref = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** The server, what the policy judges, and the reference as the server knows it; null: not one of gw's names. */
function resolve(ref: Ref): { server: string; capability: McpCapability; ref: Ref } | null {
  if (ref.type === 'ref/prompt') {
    const split = splitName(ref.name);
    return split && { server: split.server, capability: { kind: 'prompt', name: ref.name }, ref: { ...ref, name: split.name } };
  }
  const split = splitResourceUri(ref.uri);
  return split && { server: split.server, capability: { kind: 'resource', name: `${split.server}${SEPARATOR}${split.uri}` }, ref: { ...ref, uri: split.uri } };
}

export function complete(context: McpCallContext): RelayHandler<'completion/complete'> {
  return async (request, _extra, call) => {
    const target = resolve(request.params.ref);
    if (target === null || !context.upstream.has(target.server)) {
      call.settle('not_found');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'the reference is not a prompt (SERVER__NAME) or resource template (gw-mcp://SERVER/…) of this gateway');
    }
    const reason = refusal(context, target.server, target.capability);
    if (reason !== null) {
      call.settle('refused');
      throw refusedError(reason);
    }
    const client = await reach(context, target.server);
    try {
      return await client.complete({ ...request.params, ref: target.ref });
    } catch (error) {
      call.settle('upstream_error');
      throw upstreamError(context, target.server, error);
    }
  };
}
