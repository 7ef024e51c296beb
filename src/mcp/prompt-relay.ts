// prompts/list and prompts/get through gw: each prompt named SERVER__PROMPT, listed and got
// only when the caller's policy allows it (allow/deny_prompts, the server lists by default).
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { gather, reach, refusal, refusedError, upstreamError, type McpCallContext } from './mcp-context.js';
import { SEPARATOR, splitName } from './relay-call.js';
import type { RelayHandler } from './relay.js';
import { everyPage } from './upstream-servers.js';

export function listPrompts(context: McpCallContext): RelayHandler<'prompts/list'> {
  return async () => ({
    prompts: await gather(context, async (client, server) => (await everyPage(async (cursor) => {
      const page = await client.listPrompts(cursor === undefined ? undefined : { cursor });
      return { items: page.prompts, nextCursor: page.nextCursor };
    }))
      .map((prompt) => ({ ...prompt, name: `${server}${SEPARATOR}${prompt.name}` }))
      .filter((prompt) => refusal(context, server, { kind: 'prompt', name: prompt.name }) === null)),
  });
}

export function getPrompt(context: McpCallContext): RelayHandler<'prompts/get'> {
  return async (request, _extra, call) => {
    const split = splitName(request.params.name);
    if (split === null || !context.upstream.has(split.server)) {
      call.settle('not_found');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no prompt "${request.params.name}" on this gateway (prompts are SERVER${SEPARATOR}NAME; see prompts/list)`);
    }
    const reason = refusal(context, split.server, { kind: 'prompt', name: request.params.name });
    if (reason !== null) {
      call.settle('refused');
      throw refusedError(reason);
    }
    const client = await reach(context, split.server);
    try {
      return await client.getPrompt({ name: split.name, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) });
    } catch (error) {
      call.settle('upstream_error');
      throw upstreamError(context, split.server, error);
    }
  };
}
