// --log-format pretty|json (issue 14): one readable line per request on a terminal, JSON
// otherwise; an unknown format is a usage error. The pretty line is made from pino's JSON
// line, so what pino redacts stays redacted.
import { expect, it } from 'vitest';
import { formatLogLine, resolveLogFormat } from '../../../src/pretty-log.js';
import { runGw, startGatewayProcess } from '../../support/gateway-process.js';

it('formats a request line: time, status, method, path, model → provider, ms, request id, and what went wrong', () => {
  const line = JSON.stringify({ level: 30, time: Date.UTC(2026, 10, 24, 9, 5, 1, 234), service: 'gw', request_id: 'req_1', method: 'POST', path: '/v1/chat/completions', status: 429, latency_ms: 12, model: 'gpt-4o', provider: 'openai', outcome: ['upstream_429'], msg: 'request' });
  expect(formatLogLine(line)).toBe('09:05:01.234 429 POST /v1/chat/completions gpt-4o → openai 12ms req_1 upstream_429');
  expect(formatLogLine(JSON.stringify({ level: 40, time: 0, msg: 'provider skipped', warning: 'no key' }))).toBe('00:00:00.000 WARN provider skipped warning=no key');
});

it('defaults to pretty on a terminal and JSON elsewhere; GW_LOG_FORMAT and the flag choose; anything else is refused', () => {
  expect(resolveLogFormat(undefined, {}, true)).toBe('pretty');
  expect(resolveLogFormat(undefined, {}, false)).toBe('json');
  expect(resolveLogFormat(undefined, { GW_LOG_FORMAT: 'json' }, true)).toBe('json');
  expect(resolveLogFormat('pretty', { GW_LOG_FORMAT: 'json' }, false)).toBe('pretty');
  expect(() => resolveLogFormat('xml', {}, true)).toThrow('use pretty or json');
});

it('gw serve --log-format pretty writes one readable line per request, with no credential in it', async () => {
  const gateway = await startGatewayProcess({ args: ['--log-format', 'pretty'] });
  try {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${gateway.bootstrapKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(response.status).toBe(200);
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && !/ 200 POST \/v1\/chat\/completions/.test(gateway.stderr())) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gateway.stderr()).toMatch(/^\d\d:\d\d:\d\d\.\d{3} 200 POST \/v1\/chat\/completions mock\/echo → mock \d+ms req_[0-9a-f]{32}/m);
    expect(gateway.stderr()).not.toContain(gateway.bootstrapKey!);
  } finally {
    await gateway.stop();
  }
});

it('an unknown --log-format exits 2 and names the choices', async () => {
  const result = await runGw(['serve', '--log-format', 'xml', '--port', '0']);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('use pretty or json');
});
