// The one way a relayed request is handled, whatever its capability: its record opened, the
// capability's handler run, and the answer that goes back to the agent scanned by DLP whole
// (names, descriptions, URIs, annotations, schemas, content, _meta: every string, wherever it
// sits) before it leaves. The agent's message was scanned at the door (src/server/mcp-route.ts,
// the same scan), so both directions pass one function. Block: an MCP error naming the rule and
// the place; redact: the answer goes with the text replaced. A listing is scanned item by item
// (screen-listing.ts): a block there leaves out only the item it matched.
import { ProtocolError, ProtocolErrorCode, type HandlerResultTypeMap, type RequestTypeMap, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { RelayedRequest } from './mcp-methods.js';
import type { McpCallContext } from './mcp-context.js';
import { RelayCall } from './relay-call.js';
import { blockedText, scanMcpMessage, type McpBlock } from './scan-mcp-message.js';
import { LISTING_FIELDS, screenListing } from './screen-listing.js';

export type RelayExtra = ServerContext;
export type RelayHandler<M extends RelayedRequest> = (request: RequestTypeMap[M], extra: RelayExtra, call: RelayCall) => Promise<HandlerResultTypeMap[M]>;

export function relay<M extends RelayedRequest>(server: Server, context: McpCallContext, method: M, handler: RelayHandler<M>): void {
  server.setRequestHandler(method, async (request: RequestTypeMap[M], extra: ServerContext) => {
    const call = new RelayCall(context, method, request.params);
    let result: HandlerResultTypeMap[M];
    try {
      result = await handler(request, extra, call);
    } catch (error) {
      // A handler that refused says why (refused, not_found…) before it throws; anything else is the server's failure.
      call.settle('upstream_error');
      throw error;
    }
    const { answer, block } = screenAnswer(context, call, method, result);
    if (block !== null) {
      call.notePlace(block.place);
      call.settle('blocked');
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, blockedText(block, `the answer of ${method}`));
    }
    call.settle('isError' in answer && answer.isError === true ? 'tool_error' : 'ok');
    return answer;
  });
}

/** The answer scanned: a listing item by item (what was left out joins the record), anything else, and the rest of a listing, whole. */
function screenAnswer<T extends object>(context: McpCallContext, call: RelayCall, method: string, result: T): { answer: T; block: McpBlock | null } {
  const field = LISTING_FIELDS[method];
  if (field === undefined) return { answer: result, block: scanMcpMessage(context.dlp, context.trace, result, 'result') };
  const listing: Record<string, unknown> = Object.fromEntries(Object.entries(result));
  const withheld = screenListing(context.dlp, context.trace, listing, field);
  if (withheld.length > 0) call.noteWithheld(withheld);
  // The cursor and _meta beside the items: scanned whole, and taken back as the scan left them (a redacted key renamed).
  const { [field]: items, ...rest } = listing;
  const block = scanMcpMessage(context.dlp, context.trace, rest, 'result');
  replaceContents(result, { ...rest, [field]: items });
  return { answer: result, block };
}

/** The answer re-filled in place with what DLP left, so it keeps the type its method answers with. */
function replaceContents(target: object, source: object): void {
  for (const key of Object.keys(target)) Reflect.deleteProperty(target, key);
  Object.assign(target, source);
}
