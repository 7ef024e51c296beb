// --log-format (issue 14): a real gw serve writes one readable line per request with
// --log-format pretty, JSON lines when its log is not a terminal and nothing is asked,
// and refuses an unknown format naming both. No key reaches either format.
import { afterEach, describe, expect, it } from 'vitest';
import { runGw, startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { checkLogFormat } from '../../src/cli/log-level.js';
import { prettyLine } from '../../src/log-pretty.js';

let gateway: GatewayProcess | undefined;
afterEach(async () => { await gateway?.stop(); gateway = undefined; });

async function oneCall(gw: GatewayProcess): Promise<string> {
  const response = await fetch(`${gw.url}/v1/chat/completions?key=secret-in-query`, {
    method: 'POST', headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'content-type': 'application/json', 'x-request-id': 'req-log-format' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] }),
  });
  expect(response.status).toBe(200);
  return response.headers.get('x-request-id') ?? '';
}

async function waitFor(read: () => string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const match = pattern.exec(read());
    if (match) return match[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no line matching ${pattern} in:\n${read()}`);
}

describe('gw serve --log-format', () => {
  it('pretty: one line per request with time, status, method, path, model → provider, ms and request id', async () => {
    gateway = await startGatewayProcess({ args: ['--log-format', 'pretty'] });
    const id = await oneCall(gateway);
    const line = await waitFor(() => gateway!.stderr(), /^\d\d:\d\d:\d\d\.\d{3} 200 POST \S+ .*$/m);
    expect(line).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} 200 POST /v1/chat/completions\\?key=… mock/echo → mock \\d+ms ${id}$`));
    expect(gateway.stderr()).not.toContain('secret-in-query');
    expect(gateway.stderr()).not.toContain(gateway.bootstrapKey!);
    expect(gateway.stderr()).not.toMatch(/^\{/m);
  });

  it('json when the log is not a terminal and no format is asked', async () => {
    gateway = await startGatewayProcess();
    const id = await oneCall(gateway);
    const line = await waitFor(() => gateway!.stderr(), /^\{.*"msg":"request".*\}$/m);
    expect(JSON.parse(line)).toMatchObject({ request_id: id, status: 200, method: 'POST', model: 'mock/echo', provider: 'mock' });
  });

  it('refuses another format with exit 2, naming both', async () => {
    const run = await runGw(['serve', '--port', '0', '--log-format', 'fancy']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('invalid --log-format "fancy": use one of pretty, json');
  });
});

describe('the default format', () => {
  it('is pretty on a terminal and json elsewhere; GW_LOG_FORMAT is named when it is wrong', () => {
    expect(checkLogFormat(undefined, false, true)).toBe('pretty');
    expect(checkLogFormat(undefined, false, false)).toBe('json');
    expect(checkLogFormat('json', true, true)).toBe('json');
    expect(() => checkLogFormat('xml', false, true)).toThrow('invalid GW_LOG_FORMAT "xml": use one of pretty, json');
  });

  it('other lines read as time, level, message and their fields', () => {
    const line = prettyLine(JSON.stringify({ level: 40, time: Date.UTC(2026, 0, 1), service: 'gw', provider: 'x', warning: 'no key set', msg: 'provider skipped' }));
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.000 WARN provider skipped provider=x warning="no key set"$/);
    expect(prettyLine('not json')).toBe('not json');
  });
});
