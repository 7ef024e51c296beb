// DLP over one MCP message, either way, with the function HTTP bodies go through
// (src/dlp/scan-request.ts): every string of the message, wherever it sits (params,
// arguments, _meta, a listing's names, descriptions, URIs, annotations and schemas, a
// result's content and _meta), redacted in place. A block names its rule and the place it was
// found (the message's top-level field, and the item of a list), never the matched text.
import { scanRequestBody } from '../dlp/scan-request.js';
import type { DlpSettings } from '../dlp/dlp-config.js';
import type { RequestTrace } from '../pipeline/request-trace.js';

export interface McpBlock {
  rule: string;
  /** Where in the message: `params.arguments`, `result.tools[3]`… (names gw or the protocol gave, never a value). */
  place: string;
}

/** Scans `value` (the message's params or result) in place; the rule counts go to the record. Null: nothing blocked. */
export function scanMcpMessage(dlp: DlpSettings, trace: RequestTrace, value: unknown, part: 'request' | 'params' | 'result'): McpBlock | null {
  const { block, redacted } = scanMcpValue(dlp, trace, value, part);
  if (redacted > 0) trace.noteWarning(`dlp_redacted_mcp_${part}: ${redacted}`);
  return block;
}

/** One value of a message (the whole of it, or an item of a listing) at `path`, scanned in place: the block and where, and the strings redacted. */
export function scanMcpValue(dlp: DlpSettings, trace: RequestTrace, value: unknown, path: string): { block: McpBlock | null; redacted: number } {
  if (dlp.rules.length === 0 || typeof value !== 'object' || value === null) return { block: null, redacted: 0 };
  const found = scanRequestBody(value, dlp.rules, dlp.cache);
  for (const [ruleId, matches] of Object.entries(found.counts)) trace.noteDlp(ruleId, matches);
  return { block: found.blockedBy === null ? null : { rule: found.blockedBy, place: locate(dlp, value, path) }, redacted: found.redacted };
}

/**
 * The path to the block (`params.arguments.text`, `result.tools[3].description`), found by
 * scanning each part on its own, a few levels down: only on a block, so the common path scans
 * once. Each part is scanned under its own key, so a key that is itself the secret is found
 * where the walk reads keys; a key a rule matches is never written into the path.
 */
function locate(dlp: DlpSettings, value: unknown, path: string, depth = 0): string {
  if (depth >= 3 || typeof value !== 'object' || value === null) return path;
  const entries: [string, unknown][] = Object.entries(value);
  for (const [key, child] of entries) {
    if (!blocks(dlp, { [key]: child })) continue;
    const step = Array.isArray(value) ? `${path}[${key}]` : `${path}.${textMatches(dlp, key) ? '(a key)' : key}`;
    return locate(dlp, child, step, depth + 1);
  }
  return path;
}

function blocks(dlp: DlpSettings, value: unknown): boolean {
  return scanRequestBody(structuredClone(value), dlp.rules).blockedBy !== null;
}

/** Whether any rule matches `text` (a key, a name): such a text is never written into a path or a record. */
export function textMatches(dlp: DlpSettings, text: string): boolean {
  return Object.keys(scanRequestBody({ key: text }, dlp.rules).counts).length > 0;
}

/** The text an agent reads for a block: the rule, never the matched text. */
export function blockedText(block: McpBlock, what: string): string {
  return `Blocked by DLP rule "${block.rule}" in ${block.place}: ${what} carries what looks like ${block.rule.replace(/_/g, ' ')}. The matched text is not shown.`;
}

/**
 * Text from a server that reaches the agent outside a result (an error's message) passes the
 * same DLP: redacted in place, or withheld whole when a rule blocks.
 */
export function screenedText(dlp: DlpSettings, trace: RequestTrace, text: string): string {
  const holder = { text };
  const block = scanMcpMessage(dlp, trace, holder, 'result');
  if (block === null) return holder.text;
  trace.noteWarning(`dlp_withheld_server_text: ${block.rule}`);
  return `(the server's text was withheld: DLP rule "${block.rule}")`;
}
