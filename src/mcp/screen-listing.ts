// DLP over an MCP listing (tools/list, prompts/list, resources/list, resources/templates/list)
// item by item, so one server's leaky tool description does not empty the agent's toolbox: an
// item a block rule matches (anywhere in it: its name, description, schema, annotations, _meta)
// is left out of the listing, an item a redact rule matches goes with its strings redacted, and
// every other item, of that server and of the others, stays listed. What was left out is
// recorded by rule and place (the item's index and field, and its name when no rule matched
// the name), never the matched text. The rest of the answer (a cursor, its _meta) is scanned
// whole as any answer is (relay.ts).
import type { DlpSettings } from '../dlp/dlp-config.js';
import type { RequestTrace } from '../pipeline/request-trace.js';
import { scanMcpValue, textMatches, type McpBlock } from './scan-mcp-message.js';

/** The listing methods and the field of their result that holds the items. */
export const LISTING_FIELDS: Partial<Record<string, string>> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};

/** One item left out of a listing: the rule, where in the answer (`result.tools[3].description`), and the item's name when it holds no match. */
export interface WithheldItem extends McpBlock {
  name?: string;
}

/**
 * Scans each item of `result[field]` on its own, in place: blocked items are removed from the
 * list, redacted ones stay redacted. Returns the items left out.
 */
export function screenListing(dlp: DlpSettings, trace: RequestTrace, result: Record<string, unknown>, field: string): WithheldItem[] {
  const items = result[field];
  if (dlp.rules.length === 0 || !Array.isArray(items)) return [];
  const kept: unknown[] = [];
  const withheld: WithheldItem[] = [];
  let redacted = 0;
  items.forEach((item: unknown, index) => {
    const scan = scanMcpValue(dlp, trace, item, `result.${field}[${index}]`);
    redacted += scan.redacted;
    if (scan.block === null) {
      kept.push(item);
      return;
    }
    const name = nameOf(item);
    withheld.push(name !== null && !textMatches(dlp, name) ? { ...scan.block, name } : scan.block);
  });
  if (redacted > 0) trace.noteWarning(`dlp_redacted_mcp_result: ${redacted}`);
  for (const rule of new Set(withheld.map((item) => item.rule))) trace.noteWarning(`dlp_withheld_mcp_items: ${rule}`);
  result[field] = kept;
  return withheld;
}

/** The name an agent would call the item by (tools, prompts, resources and templates all have one). */
function nameOf(item: unknown): string | null {
  if (typeof item !== 'object' || item === null) return null;
  const name: unknown = (item as { name?: unknown }).name;
  return typeof name === 'string' ? name : null;
}
