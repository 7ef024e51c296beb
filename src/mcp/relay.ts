// The one way a relayed request is handled, whatever its capability: its record opened, the
// capability's handler run, and the answer that goes back to the agent scanned by DLP whole
// (names, descriptions, URIs, annotations, schemas, content, _meta: every string, wherever it
// sits) before it leaves. The agent's message was scanned at the door (src/server/mcp-route.ts,
// the same scan), so both directions pass one function. Block: an MCP error naming the rule and
// the place; redact: the answer goes with the text replaced. A listing is scanned item by item
// (screen-listing.ts): a block there leaves out only the item it matched.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnyObjectSchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError, type ServerNotification, type ServerRequest, type ServerResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpCallContext } from './mcp-context.js';
import { RelayCall } from './relay-call.js';
import { blockedText, scanMcpMessage, type McpBlock } from './scan-mcp-message.js';
import { LISTING_FIELDS, screenListing } from './screen-listing.js';

export type RelayExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
export type RelayHandler<T extends AnyObjectSchema> = (request: SchemaOutput<T>, extra: RelayExtra, call: RelayCall) => Promise<ServerResult>;

export function relay<T extends AnyObjectSchema>(server: Server, context: McpCallContext, schema: T, handler: RelayHandler<T>): void {
  server.setRequestHandler(schema, async (request, extra) => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const call = new RelayCall(context, method, params);
    let result: ServerResult;
    try {
      result = await handler(request, extra, call);
    } catch (error) {
      // A handler that refused says why (refused, not_found…) before it throws; anything else is the server's failure.
      call.settle('upstream_error');
      throw error;
    }
    const { answer, block } = screenAnswer(context, call, method, result);
    result = answer;
    if (block !== null) {
      call.notePlace(block.place);
      call.settle('blocked');
      throw new McpError(ErrorCode.InvalidRequest, blockedText(block, `the answer of ${method}`));
    }
    call.settle((result as { isError?: unknown }).isError === true ? 'tool_error' : 'ok');
    return result;
  });
}

/** The answer scanned: a listing item by item (what was left out joins the record), anything else, and the rest of a listing, whole. */
function screenAnswer(context: McpCallContext, call: RelayCall, method: string, result: ServerResult): { answer: ServerResult; block: McpBlock | null } {
  const field = LISTING_FIELDS[method];
  if (field === undefined) return { answer: result, block: scanMcpMessage(context.dlp, context.trace, result, 'result') };
  const listing: Record<string, unknown> = result;
  const withheld = screenListing(context.dlp, context.trace, listing, field);
  if (withheld.length > 0) call.noteWithheld(withheld);
  // The cursor and _meta beside the items: scanned whole, and taken back as the scan left them (a redacted key renamed).
  const { [field]: items, ...rest } = listing;
  const block = scanMcpMessage(context.dlp, context.trace, rest, 'result');
  return { answer: { ...rest, [field]: items }, block };
}
