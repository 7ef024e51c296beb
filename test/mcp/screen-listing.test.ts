// A listing scanned item by item (issue 36): the function alone, on listings shaped as the SDK
// sends them. The e2e proof with real servers is test/e2e/mcp/listing-dlp.test.ts.
import { describe, expect, it } from 'vitest';
import { resolveDlpSettings } from '../../src/dlp/dlp-config.js';
import { screenListing } from '../../src/mcp/screen-listing.js';
import { RequestTrace } from '../../src/pipeline/request-trace.js';
import { SAMPLES } from '../dlp/samples.js';

const SECRET = SAMPLES.githubPat;
const dlp = resolveDlpSettings([{ scope: '*', actions: { email: 'redact' } }], ['*']);

describe('screenListing', () => {
  it('leaves out each blocked item, redacts in the others, keeps the order of the rest', () => {
    const trace = new RequestTrace();
    const result = { tools: [
      { name: 'a__one', description: 'fine', inputSchema: { type: 'object' } },
      { name: 'a__two', description: `uses ${SECRET}`, inputSchema: { type: 'object' } },
      { name: 'b__three', description: `mail ${SAMPLES.email}`, inputSchema: { type: 'object' } },
      { name: 'b__four', description: 'fine', inputSchema: { type: 'object', properties: { q: { type: 'string', description: SECRET } } } },
    ], nextCursor: 'c1' };
    const withheld = screenListing(dlp, trace, result, 'tools');
    expect(result.tools.map((tool) => tool.name)).toEqual(['a__one', 'b__three']);
    expect(result.tools[1]!.description).toBe('mail [REDACTED:email]');
    expect(result.nextCursor).toBe('c1');
    expect(withheld).toEqual([
      { rule: 'github_token', place: 'result.tools[1].description', name: 'a__two' },
      { rule: 'github_token', place: 'result.tools[3].inputSchema.properties.q', name: 'b__four' },
    ]);
    expect(trace.dlp).toMatchObject({ github_token: 2, email: 1 });
    expect(trace.warnings).toEqual(['dlp_redacted_mcp_result: 1', 'dlp_withheld_mcp_items: github_token']);
    expect(JSON.stringify([withheld, trace.warnings, trace.data])).not.toContain(SECRET);
  });

  it('an item whose name is the match is left out without its name', () => {
    const result = { resources: [{ name: `named ${SECRET}`, uri: 'file:///x' }, { name: 'readme', uri: 'file:///r' }] };
    expect(screenListing(dlp, new RequestTrace(), result, 'resources')).toEqual([{ rule: 'github_token', place: 'result.resources[0].name' }]);
    expect(result.resources).toEqual([{ name: 'readme', uri: 'file:///r' }]);
  });

  it('no rules, or no list: nothing is touched', () => {
    const result = { prompts: [{ name: `p ${SECRET}` }] };
    expect(screenListing(resolveDlpSettings([{ scope: '*', actions: { github_token: 'off' } }], ['*']), new RequestTrace(), result, 'prompts')).toEqual([]);
    expect(result.prompts).toHaveLength(1);
    expect(screenListing(dlp, new RequestTrace(), { other: 1 }, 'prompts')).toEqual([]);
  });
});
