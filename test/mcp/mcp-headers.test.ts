// MCP 2026-07-28's Mcp-Method/Mcp-Name headers as gw reads them: the target a policy decides on
// before the body, and the body held to them (src/mcp/mcp-headers.ts).
import { describe, expect, it } from 'vitest';
import { headerMismatch, headerTarget, readMcpHeaders } from '../../src/mcp/mcp-headers.js';

const MODERN_META = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };

describe('headerTarget', () => {
  it('names the server and capability of a call, a get and a read', () => {
    expect(headerTarget(readMcpHeaders({ 'mcp-method': 'tools/call', 'mcp-name': 'files__read' }))).toEqual({ server: 'files', capability: { kind: 'tool', name: 'files__read' } });
    expect(headerTarget(readMcpHeaders({ 'mcp-method': 'prompts/get', 'mcp-name': ' files__review ' }))).toEqual({ server: 'files', capability: { kind: 'prompt', name: 'files__review' } });
    expect(headerTarget(readMcpHeaders({ 'mcp-method': 'resources/read', 'mcp-name': 'gw-mcp://files/file%3A%2F%2F%2Fa.txt' })))
      .toEqual({ server: 'files', capability: { kind: 'resource', name: 'files__file:///a.txt' } });
  });

  it('decodes a base64 sentinel name', () => {
    const encoded = `=?base64?${Buffer.from('files__lire_été').toString('base64')}?=`;
    expect(headerTarget(readMcpHeaders({ 'mcp-method': 'tools/call', 'mcp-name': encoded }))?.capability.name).toBe('files__lire_été');
  });

  it('names nothing for a listing, a name without a server, or no name', () => {
    expect(headerTarget(readMcpHeaders({ 'mcp-method': 'tools/list' }))).toBeNull();
    expect(headerTarget(readMcpHeaders({ 'mcp-method': 'tools/call', 'mcp-name': 'read' }))).toBeNull();
    expect(headerTarget(readMcpHeaders({ 'mcp-method': 'tools/call' }))).toBeNull();
  });
});

describe('headerMismatch', () => {
  const call = (name: string, meta: object = {}) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, ...meta } });

  it('passes headers that name the body, and a 2025 request without them', () => {
    expect(headerMismatch(readMcpHeaders({ 'mcp-method': 'tools/call', 'mcp-name': 'a__b' }), call('a__b', MODERN_META))).toBeNull();
    expect(headerMismatch(readMcpHeaders({}), call('a__b'))).toBeNull();
    expect(headerMismatch(readMcpHeaders({ 'mcp-method': 'tools/list' }), { jsonrpc: '2.0', id: 1, method: 'tools/list', params: MODERN_META })).toBeNull();
  });

  it('refuses a header naming another method or target, in any revision', () => {
    expect(headerMismatch(readMcpHeaders({ 'mcp-method': 'tools/list' }), call('a__b'))).toBe('Mcp-Method');
    expect(headerMismatch(readMcpHeaders({ 'mcp-method': 'tools/call', 'mcp-name': 'a__allowed' }), call('a__denied'))).toBe('Mcp-Name');
    expect(headerMismatch(readMcpHeaders({ 'mcp-method': 'tools/list', 'mcp-name': 'a__b' }), { jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBe('Mcp-Name');
  });

  it('refuses a 2026-07-28 request that leaves them out', () => {
    expect(headerMismatch(readMcpHeaders({}), call('a__b', MODERN_META))).toBe('Mcp-Method');
    expect(headerMismatch(readMcpHeaders({ 'mcp-method': 'tools/call' }), call('a__b', MODERN_META))).toBe('Mcp-Name');
  });
});
